import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSession } from '../lib/auth-store';
import { clearAlerts } from '../lib/alerts';
import { stubApi } from './api-stub';

// Screens are lazy modules: their first import can take over a second on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = () => {};
Element.prototype.scrollIntoView = function scrollIntoView() {};
// Nor does it lay out or resize anything: an observer that is never called (StickyBottomBar).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeEach(() => {
  // No test reaches a real network: unmatched API calls answer 404 unless a test stubs them.
  stubApi();
});

afterEach(() => {
  cleanup();
  clearSession();
  clearAlerts();
  localStorage.clear();
  vi.unstubAllGlobals();
});
