import { useSyncExternalStore } from 'react';
import { errorMessage, type StatusMessages } from './error-message';

export type AlertVariant = 'danger' | 'warning' | 'info' | 'success';

/** A button inside the message (e.g. "Undo"); pressing it dismisses the message. */
export type AlertAction = { label: string; onClick: () => void };

export type AlertItem = {
  id: number;
  variant: AlertVariant;
  message: string;
  action?: AlertAction;
};

/**
 * How long a message stays unless the caller says otherwise (spec §8/§9: errors 5 s;
 * the info and success messages the spec names stay 10 s and 15 s).
 */
export const ALERT_TIMEOUT_MS: Record<AlertVariant, number> = {
  danger: 5_000,
  warning: 5_000,
  info: 10_000,
  success: 15_000,
};

let items: AlertItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  for (const listener of listeners) listener();
}

export function showAlert(
  message: string,
  variant: AlertVariant = 'danger',
  timeoutMs?: number,
  action?: AlertAction,
) {
  const id = nextId++;
  // The same text twice in a row (a double click, a retried query) shows once.
  items = [
    ...items.filter((a) => a.message !== message),
    { id, variant, message, ...(action ? { action } : {}) },
  ];
  emit();
  timers.set(
    id,
    setTimeout(() => dismissAlert(id), timeoutMs ?? ALERT_TIMEOUT_MS[variant]),
  );
  return id;
}

/** A failed call as a danger alert, with the spec's extraction rules. */
export function showError(error: unknown, overrides?: StatusMessages) {
  return showAlert(errorMessage(error, overrides), 'danger');
}

export function dismissAlert(id: number) {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  const before = items.length;
  items = items.filter((a) => a.id !== id);
  if (items.length !== before) emit();
}

export function clearAlerts() {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  items = [];
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAlerts(): AlertItem[] {
  return useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
}
