import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Report } from '@paddock/contract/reports';

/** The query as the screen holds it (the location id as its select gives it). */
export type ReportParams = { location: string; from: string; to: string };
import { api } from '../../../lib/api-client';

/** `GET /api/reports`: one location over one period (reports.view_report). */
export const reportQuery = (query: ReportParams) =>
  queryOptions({
    queryKey: ['reports', query],
    queryFn: () => api<Report>('/reports', { query }),
    placeholderData: keepPreviousData,
  });

export const useReport = (query: ReportParams | null) =>
  useQuery({ ...reportQuery(query ?? { location: '', from: '', to: '' }), enabled: !!query });

type LocationOption = { id: number; name: string; currency: string; timezone: string };

/** The locations a report can be for. */
export const useReportLocations = () =>
  useQuery({
    queryKey: ['reports', 'locations'],
    queryFn: async () => {
      const answer = await api<Paginated<LocationOption> | LocationOption[]>('/locations', {
        query: { page_size: 100 },
      });
      return Array.isArray(answer) ? answer : answer.results;
    },
  });
