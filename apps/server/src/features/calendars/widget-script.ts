import type { FastifyInstance } from 'fastify';
import { WIDGET_HEIGHT_MESSAGE } from '@paddock/contract/public-availability';

/**
 * The loader a venue pastes into its website (decision 0123): it mounts the widget's page
 * (`/widget/:location`) in an iframe after its own script tag and sizes it to the height the page
 * posts, believing only messages from Paddock's origin and from that iframe. Plain ES5, no
 * cookies, nothing else on the host page touched.
 */
export const WIDGET_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;
  var location = script.getAttribute('data-location') || '';
  if (!/^[0-9]+$/.test(location)) return;
  var frame = document.createElement('iframe');
  frame.src = origin + '/widget/' + location;
  frame.title = script.getAttribute('data-title') || 'Book a sim';
  frame.style.cssText = 'display:block;width:100%;max-width:720px;height:320px;border:0;';
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== '${WIDGET_HEIGHT_MESSAGE}' || typeof data.height !== 'number') return;
    frame.style.height = Math.max(120, Math.min(4000, Math.ceil(data.height))) + 'px';
  });
  script.parentNode.insertBefore(frame, script.nextSibling);
})();
`;

/** `GET /widget.js`: any website may load it (it carries nothing of anyone's). */
export async function widgetScriptRoute(app: FastifyInstance): Promise<void> {
  app.get('/widget.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      // The document set says same-origin; a script tag on the venue's site needs it loadable.
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(WIDGET_SCRIPT),
  );
}
