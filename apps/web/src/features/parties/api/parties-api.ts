import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Party,
  PartyHost,
  PartyMember,
  PartyMemberAdd,
  PartyUpdate,
} from '@paddock/contract/races';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';

/**
 * Creates a party hosted by the first seat, then adds the others; one alert at the end. A seat
 * that cannot join (taken meanwhile) is named in an error and the rest still go in.
 */
export function useCreateParty(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ host, others }: { host: PartyHost; others: number[] }) => {
      const party = await api<Party>('/races/parties/host', { method: 'POST', body: host });
      for (const calendar of others) {
        await addMember({ party: party.id, calendar });
      }
      return party;
    },
    onSuccess: (party) => {
      showAlert(`Created ${party.name}.`, 'success', 5_000);
      onDone();
    },
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: ['races'] }),
  });
}

const addMember = (body: PartyMemberAdd) =>
  api<PartyMember>('/races/parties/members', { method: 'POST', body });

export function useAddToParty(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ party, calendars }: { party: Party; calendars: number[] }) => {
      for (const calendar of calendars) await addMember({ party: party.id, calendar });
      return party;
    },
    onSuccess: (party, { calendars }) => {
      showAlert(
        `Added ${calendars.length} seat${calendars.length === 1 ? '' : 's'} to ${party.name}.`,
        'success',
        5_000,
      );
      onDone();
    },
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: ['races'] }),
  });
}

export function useRemoveMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (member: PartyMember) =>
      api(`/races/parties/members/${member.id}`, { method: 'DELETE' }),
    onSuccess: (_, member) => showAlert(`Removed ${member.calendar_name}.`, 'success', 5_000),
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: ['races'] }),
  });
}

export function useDeleteParty() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (party: Party) => api(`/races/parties/${party.id}`, { method: 'DELETE' }),
    onSuccess: (_, party) => showAlert(`Deleted ${party.name}.`, 'success', 5_000),
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: ['races'] }),
  });
}

/** PATCH a party: a new name, or a waiting party's new start (null: now). */
export function useUpdateParty(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ party, body }: { party: Party; body: PartyUpdate }) =>
      api<Party>(`/races/parties/${party.id}`, { method: 'PATCH', body }),
    onSuccess: (changed, { body }) => {
      showAlert(
        body.starts_at !== undefined
          ? `Changed the start of ${changed.name}.`
          : `Renamed the party ${changed.name}.`,
        'success',
        5_000,
      );
      onDone();
    },
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: ['races'] }),
  });
}
