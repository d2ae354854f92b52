import { detailBody, validationErrorBody } from '@paddock/contract/common';

/**
 * The error answers most routes declare in their OpenAPI schema: a field-by-field 400, and
 * 401/403/404 with a `detail`. Spread into a route's `response` beside its 2xx body.
 */
export const routeErrors = {
  400: validationErrorBody,
  401: detailBody,
  403: detailBody,
  404: detailBody,
};
