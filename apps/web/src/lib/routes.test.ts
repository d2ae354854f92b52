import { describe, expect, it } from 'vitest';
import { pathTo, safeRedirect } from './routes';

describe('named routes', () => {
  it('fills params, drops empty optional segments and adds the query', () => {
    expect(pathTo('customPageView', { id: 3 })).toBe('/pages/3');
    expect(pathTo('leaderboards')).toBe('/leaderboards');
    expect(pathTo('leaderboards', { id: 9 })).toBe('/leaderboards/9');
    expect(pathTo('signup', {}, { redirect: '/reservations/all?location=2', step: null })).toBe(
      '/signup?redirect=%2Freservations%2Fall%3Flocation%3D2',
    );
    expect(pathTo('home')).toBe('/');
  });

  it('follows only same-site redirects', () => {
    expect(safeRedirect('/laps?x=1', '/dashboard')).toBe('/laps?x=1');
    expect(safeRedirect('//evil.example', '/dashboard')).toBe('/dashboard');
    expect(safeRedirect('https://evil.example', '/dashboard')).toBe('/dashboard');
    expect(safeRedirect(null, '/dashboard')).toBe('/dashboard');
  });
});
