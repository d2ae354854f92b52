import type { MyDataExport } from '@paddock/contract/my-data';
import { api } from '../api-client';

// "Download my data" (decision 0124): the customer's own from their profile, a customer's from
// the admin user page (staff with user.change_user; the server audits it).

/** `GET /api/users/{id}/my_data`: everything kept about the person (decision 0124). */
export function fetchMyData(userId: number | 'me') {
  return api<MyDataExport>(`/users/${userId}/my_data`);
}

/** Saves the export as a file named for the day: one JSON, its `summary` the readable part. */
export function saveAsFile(data: MyDataExport) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `my-data-${data.generated_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
