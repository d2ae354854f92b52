import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * MJML and html-to-text run in one worker thread, never on the app's event loop (decision 0066):
 * loading MJML is ~0.6–1.3 s of CPU that used to block every request of the instance behind the
 * first receipt after a start. The thread is started by the first render that needs it (or
 * `warmReceiptRenderer()`), and ends after a while without work; the compiled layouts
 * stay cached on the main thread (receipt-mail.ts), so later receipts rarely need it again.
 */

/** html-to-text's options for the text part; `unwrapped` is the same without word wrapping. */
export const TEXT_OPTIONS = {
  wordwrap: 100,
  selectors: [
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'title', format: 'skip' },
    // A receipt's label/value rows: one line each (inline cells ran them together, issue 30).
    {
      selector: 'tr.pdk-row',
      format: 'block',
      options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
    },
  ],
};

/** What the thread makes of an MJML source: the HTML and its text, wrapped and unwrapped. */
export type Rendered = { html: string; text: string; unwrapped: string };

// Plain CommonJS evaluated in the worker: it runs the same under tsx, vitest and the esbuild
// bundle (no second entry point to build); the packages are resolved here and passed in.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let mjml, wrapped, unwrapped;
function load() {
  if (mjml) return;
  mjml = require(workerData.mjml);
  const { compile } = require(workerData.htmlToText);
  wrapped = compile(workerData.options);
  unwrapped = compile({ ...workerData.options, wordwrap: false });
}
parentPort.on('message', async ({ id, op, input }) => {
  try {
    load();
    let result = null;
    if (op === 'text') result = wrapped(input);
    else if (op === 'mjml') {
      const { html, errors } = await mjml(input, { validationLevel: 'strict', fonts: {} });
      if (errors.length) throw new Error('receipt template: ' + errors[0].formattedMessage);
      result = { html, text: wrapped(html), unwrapped: unwrapped(html) };
    }
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * How long the thread stays without work before it ends (its ~60–75 MB go with it, 0049): the
 * compiled layouts stay on the main thread, so after a venue's first few receipts the thread is
 * rarely needed, and an instance must stay under 250 MB through a busy hour (issue 14).
 */
const IDLE_MS = 30_000;

type Pending = { resolve: (value: never) => void; reject: (error: Error) => void };
let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();
let idle: NodeJS.Timeout | undefined;

function thread(): Worker {
  if (worker) return worker;
  const require = createRequire(import.meta.url);
  const started = new Worker(WORKER, {
    eval: true,
    workerData: {
      mjml: require.resolve('mjml'),
      htmlToText: require.resolve('html-to-text'),
      options: TEXT_OPTIONS,
    },
  });
  started.unref();
  started.on('message', ({ id, result, error }: { id: number; result: never; error?: string }) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (error === undefined) call.resolve(result);
    else call.reject(new Error(error));
    settled();
  });
  const fail = (error: Error) => {
    if (worker !== started) return;
    worker = undefined;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    settled();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`receipt renderer thread exited (${code})`)));
  return (worker = started);
}

/** With work in hand the thread keeps the process alive; idle, it ends after IDLE_MS. */
function settled() {
  clearTimeout(idle);
  if (pending.size > 0 || !worker) return;
  worker.unref();
  const idleWorker = worker;
  idle = setTimeout(() => {
    if (worker === idleWorker && pending.size === 0) {
      worker = undefined;
      void idleWorker.terminate();
    }
  }, IDLE_MS).unref();
}

function call<T>(op: 'warm' | 'mjml' | 'text', input: string): Promise<T> {
  const target = thread();
  clearTimeout(idle);
  target.ref();
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: never) => void, reject });
    target.postMessage({ id, op, input });
  });
}

/** An MJML source in HTML (strict validation) with its text part. */
export function renderMjml(source: string): Promise<Rendered> {
  return call('mjml', source);
}

/** html-to-text's text part of some HTML (TEXT_OPTIONS). */
export function htmlToText(html: string): Promise<string> {
  return call('text', html);
}

/** Starts the thread and loads MJML in it, so the first receipt does not wait for that. */
export function warmReceiptRenderer(): Promise<void> {
  return call('warm', '');
}

/** Ends the thread (shutdown); what it was rendering fails, and a later render starts it anew. */
export async function stopReceiptRenderer(): Promise<void> {
  const stopping = worker;
  if (!stopping) return;
  worker = undefined;
  clearTimeout(idle);
  for (const call of pending.values()) call.reject(new Error('receipt renderer stopped'));
  pending.clear();
  await stopping.terminate();
}
