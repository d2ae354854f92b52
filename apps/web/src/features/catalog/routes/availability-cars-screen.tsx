/**
 * The Cars tab of /availability (spec customer §2, route name availabilityCars). Renders inside
 * the Cars & Tracks screen, which owns the page's h1. Empty until that work lands.
 */
export default function AvailabilityCarsScreen() {
  return null;
}
