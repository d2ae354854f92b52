/**
 * Spec §5/§9: items 1 to 100 (default 15); reload 10 to 600 s, step 10 (default 60). Apart from
 * the form, which the wall screen loads only at `/display` (decision 0048).
 */
export const DISPLAY_DEFAULTS = { itemsToShow: 15, reloadInterval: 60 };
