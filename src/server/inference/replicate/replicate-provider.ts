// The Replicate provider: one prediction per tool job through the official client, polled to a
// terminal status, its outputs copied into memory (Replicate deletes them after an hour and its URLs
// must never reach users). The only URLs fetched server-side are outputs on the allowed delivery hosts.
// In webhook mode run() only creates the prediction and answers `pending`; Replicate calls back when
// it is done and complete() copies the outputs then (check() is the backstop for a lost webhook).

import { setTimeout as sleep } from 'node:timers/promises';
import Replicate, { type Prediction } from 'replicate';
import { extensionOfType } from '../../../contract/output-files';
import type { ToolId } from '../../../contract/tools';
import type { ImageInput, ImageMime, OutputImage } from '../../images/image-types';
import { type InferenceProvider, ProviderError, type ProviderInput, type ToolResult } from '../provider';
import type { ServedTools } from '../served-tool';
import { imagesRequested, type OutputRule, replicateModels } from './models';

export const SAFETY_USER_MESSAGE = "The model's safety filter blocked this request. Try a different prompt or image.";

/** Inputs up to this size go inline as data URIs; larger ones through the Files API. */
export const INLINE_IMAGE_MAX_BYTES = 256 * 1024;

// flux: "NSFW content detected"; Replicate's moderation: "flagged as sensitive ... (E005)".
const SAFETY_ERROR = /nsfw|safety (checker|filter)|flagged as sensitive|\bE005\b|content polic/i;
const TERMINAL = new Set<Prediction['status']>(['succeeded', 'failed', 'canceled', 'aborted']);
const MAX_REDIRECTS = 3;

export type ReplicateProviderLogger = {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export type ReplicateProviderOptions = {
  apiToken: string;
  /** The tools (the registry's list): each names its model, if Replicate serves it. */
  tools: ServedTools;
  /** Defaults to https://api.replicate.com/v1 (tests point it at a local fake). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /**
   * Where outputs may be downloaded from. A bare host name allows https on that host and its
   * subdomains; an entry with a scheme (`http://127.0.0.1:4010`) allows exactly that origin.
   */
  allowedOutputHosts?: string[];
  pollIntervalMs?: number;
  /** The whole job: create, run, download. */
  timeoutMs?: number;
  maxOutputBytes?: number;
  logger?: ReplicateProviderLogger;
  /** Webhook mode: where Replicate posts a finished prediction (our /api/webhooks/replicate). */
  webhook?: { url: string };
};

const DEFAULT_API_URL = 'https://api.replicate.com/v1';

export function createReplicateProvider(options: ReplicateProviderOptions): InferenceProvider {
  const models = replicateModels(options.tools);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const client = new Replicate({
    auth: options.apiToken,
    baseUrl: options.baseUrl,
    fetch: fetchImpl,
    useFileOutput: false,
  });
  const isAllowedOutput = outputUrlMatcher(options.allowedOutputHosts ?? ['replicate.delivery']);
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const maxOutputBytes = options.maxOutputBytes ?? 50 * 1024 * 1024;
  const logger = options.logger ?? console;
  const webhook = options.webhook;
  // Our uploads are `${api}/files/{id}` in a prediction's input: complete() deletes them by that prefix.
  const filesPrefix = `${(options.baseUrl ?? DEFAULT_API_URL).replace(/\/$/, '')}/files/`;
  // Prefer: wait holds the create request open (Replicate allows 1-60 s); never beyond our own deadline.
  const waitSeconds = Math.max(1, Math.min(60, Math.ceil(timeoutMs / 1000)));

  function apiFailure(error: unknown, action: string): ProviderError {
    const status = httpStatusOf(error);
    const detail = error instanceof Error ? error.message : String(error);
    if (status === 401 || status === 403) {
      // The token itself is never logged: only which variable to check.
      logger.error(`Replicate refused the API token (HTTP ${status}) on ${action}: check REPLICATE_API_TOKEN`, {
        status,
      });
      return new ProviderError(`Replicate authentication failed (HTTP ${status}) on ${action}`, { retryable: false });
    }
    if (status === 429 || (status !== undefined && status >= 500)) {
      return new ProviderError(`Replicate is busy or failing (HTTP ${status}) on ${action}`, { retryable: true });
    }
    if (status !== undefined) {
      logger.error(`Replicate rejected ${action} (HTTP ${status})`, { status, detail });
      return new ProviderError(`Replicate rejected ${action} (HTTP ${status}): ${detail}`, { retryable: false });
    }
    return new ProviderError(`Could not reach Replicate on ${action}: ${detail}`, { retryable: true });
  }

  async function cancelQuietly(id: string): Promise<void> {
    try {
      await client.predictions.cancel(id, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      logger.warn('could not cancel a Replicate prediction', { predictionId: id, error });
    }
  }

  function getPrediction(id: string, signal: AbortSignal, action: string): Promise<Prediction> {
    return client.predictions.get(id, { signal }).catch((error: unknown) => {
      throw apiFailure(error, `${action} prediction ${id}`);
    });
  }

  async function deleteUploadQuietly(id: string): Promise<void> {
    try {
      await client.files.delete(id, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      logger.warn('could not delete an uploaded Replicate file', { fileId: id, error });
    }
  }

  async function modelImage(image: ImageInput, signal: AbortSignal, uploads: string[]): Promise<string> {
    if (image.bytes.length <= INLINE_IMAGE_MAX_BYTES) {
      return `data:${image.mime};base64,${image.bytes.toString('base64')}`;
    }
    const file = new File([new Uint8Array(image.bytes)], `input.${extensionOfType(image.mime)}`, { type: image.mime });
    try {
      const uploaded = await client.files.create(file, {}, { signal });
      uploads.push(uploaded.id);
      return uploaded.urls.get;
    } catch (error) {
      throw apiFailure(error, 'uploading the input image');
    }
  }

  async function download(raw: string, signal: AbortSignal): Promise<OutputImage> {
    let url = parseUrl(raw);
    for (let hop = 0; ; hop++) {
      if (!url) throw malformed('Replicate output is not a URL');
      if (!isAllowedOutput(url))
        throw malformed(`Replicate output on host ${url.host} is not an allowed delivery host`);
      let response: Response;
      try {
        // Redirects are followed by hand so that every hop is checked against the allowed hosts.
        response = await fetchImpl(url, { signal, redirect: 'manual' });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ProviderError(`Could not download a Replicate output: ${String(error)}`, { retryable: true });
      }
      if (response.status >= 300 && response.status < 400 && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        url = location ? parseUrl(location, url) : undefined;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new ProviderError(`Downloading a Replicate output failed with HTTP ${response.status}`, {
          retryable: response.status === 429 || response.status >= 500,
        });
      }
      const bytes = await readAtMost(response, maxOutputBytes);
      const contentType = sniffImageType(bytes);
      if (!contentType) throw malformed('Replicate output is not a PNG, JPEG or WEBP image');
      return { bytes, contentType };
    }
  }

  /** A terminal prediction's images, copied from the delivery hosts; a failed one as a ProviderError. */
  async function imagesOf(prediction: Prediction, rule: OutputRule, wanted: number, signal: AbortSignal) {
    if (prediction.status !== 'succeeded') throw predictionFailure(prediction);
    const urls = outputUrls(rule, prediction.output, wanted);
    const images: OutputImage[] = [];
    for (const url of urls) images.push(await download(url, signal));
    return { kind: 'images', images } satisfies ToolResult;
  }

  async function run(request: ProviderInput, signal: AbortSignal): Promise<ToolResult> {
    if (!models.serves(request.tool)) throw new ProviderError(`Replicate does not serve ${request.tool}`);
    signal.throwIfAborted();

    // One signal for everything below: the caller's abort or our own deadline.
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop.abort(new Error('timeout')), timeoutMs);
    const uploads: string[] = [];
    let creating: Promise<Prediction> | undefined;
    let prediction: Prediction | undefined;
    try {
      const image = request.image ? await modelImage(request.image, stop.signal, uploads) : undefined;
      const { spec, input } = models.requestFor(request, image);
      // The create call gets no abort signal: if we stop while it is in flight we still need the
      // prediction's id to cancel it.
      creating = client.predictions.create({
        ...(spec.version ? { version: spec.version } : { model: spec.model }),
        input,
        ...(webhook ? { webhook: webhook.url, webhook_events_filter: ['completed'] } : { wait: waitSeconds }),
      });
      prediction = await untilStopped(
        creating.catch((error: unknown) => {
          throw apiFailure(error, `creating a ${spec.model} prediction`);
        }),
        stop.signal,
      );
      if (webhook) {
        // Nothing is held open: the job ends when the webhook (or the backstop) hands the prediction
        // to complete(), which also deletes the uploaded input the model still has to read.
        uploads.length = 0;
        return { kind: 'pending', providerRef: prediction.id };
      }
      while (!TERMINAL.has(prediction.status)) {
        await sleep(pollIntervalMs, undefined, { signal: stop.signal });
        prediction = await getPrediction(prediction.id, stop.signal, 'polling');
      }
      return await imagesOf(prediction, spec.output, imagesRequested(request), stop.signal);
    } catch (error) {
      // Whatever went wrong (abort, deadline, polling failure), a prediction left running would keep
      // costing money while the queue retries with a new one.
      if (prediction && !TERMINAL.has(prediction.status)) await cancelQuietly(prediction.id);
      else if (!prediction && creating && stop.signal.aborted) {
        creating.then(
          (created) => cancelQuietly(created.id),
          () => {},
        );
      }
      if (!stop.signal.aborted) throw error;
      signal.throwIfAborted();
      throw new ProviderError(`Replicate did not finish ${request.tool} within ${timeoutMs} ms`, { retryable: true });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      for (const id of uploads) await deleteUploadQuietly(id);
    }
  }

  async function complete(payload: unknown, imagesWanted: number): Promise<ToolResult> {
    if (!isTerminalPrediction(payload)) throw malformed('Replicate sent a prediction that has not finished');
    const prediction = payload as Prediction;
    try {
      const spec = models.specForModel(prediction.model);
      if (!spec)
        throw malformed(`Replicate prediction ${prediction.id} is of model ${prediction.model}, not one of ours`);
      return await imagesOf(prediction, spec.output, imagesWanted, AbortSignal.timeout(timeoutMs));
    } finally {
      const input: Record<string, unknown> = isRecord(prediction.input) ? prediction.input : {};
      for (const value of Object.values(input)) {
        if (typeof value === 'string' && value.startsWith(filesPrefix)) {
          await deleteUploadQuietly(value.slice(filesPrefix.length));
        }
      }
    }
  }

  async function check(id: string): Promise<Prediction | null> {
    const prediction = await getPrediction(id, AbortSignal.timeout(30_000), 'checking');
    return TERMINAL.has(prediction.status) ? prediction : null;
  }

  return {
    name: 'replicate',
    supports: (tool: ToolId) => models.serves(tool),
    run,
    complete,
    check,
    cancel: cancelQuietly,
  };
}

/** A prediction payload (a webhook's body) that has reached a final status. */
export function isTerminalPrediction(payload: unknown): payload is Pick<Prediction, 'id' | 'status'> {
  if (!isRecord(payload) || typeof payload.id !== 'string') return false;
  return TERMINAL.has(payload.status as Prediction['status']);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(message: string): ProviderError {
  return new ProviderError(message, { retryable: false });
}

function httpStatusOf(error: unknown): number | undefined {
  // The client's ApiError carries the Response; the class itself is not exported at runtime.
  const status = (error as { response?: { status?: unknown } } | null)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

function predictionFailure(prediction: Prediction): ProviderError {
  const { id, status, error } = prediction;
  const detail = typeof error === 'string' ? error : error == null ? '' : JSON.stringify(error);
  if (SAFETY_ERROR.test(detail)) {
    return new ProviderError(`Replicate prediction ${id} was blocked: ${detail}`, {
      userMessage: SAFETY_USER_MESSAGE,
      retryable: false,
    });
  }
  // `aborted` means it never ran (e.g. a deadline passed in the queue): trying again is fair.
  return new ProviderError(`Replicate prediction ${id} ${status}${detail ? `: ${detail}` : ''}`, {
    retryable: status === 'aborted',
  });
}

/** The image URLs of a succeeded prediction, at most as many as were asked for. */
export function outputUrls(rule: OutputRule, output: unknown, wanted: number): string[] {
  let entries: unknown[];
  if (typeof output === 'string') entries = [output];
  else if (Array.isArray(output)) entries = output;
  else throw malformed(`Replicate output is ${output === null ? 'null' : typeof output}, not image URLs`);

  if (rule === 'single' && entries.length !== 1) {
    throw malformed(`Replicate returned ${entries.length} outputs where one was expected`);
  }
  if (rule === 'first') entries = entries.slice(0, 1);
  if (rule === 'cutout-then-list') entries = entries.slice(1);
  entries = entries.slice(0, wanted);
  if (entries.length === 0) throw malformed('Replicate returned no output images');
  return entries.map((entry) => {
    if (typeof entry !== 'string') throw malformed(`Replicate output entry is ${typeof entry}, not a URL`);
    return entry;
  });
}

/** Bare hosts: https on the host or a subdomain, default port. Entries with a scheme: that exact origin. */
export function outputUrlMatcher(entries: readonly string[]): (url: URL) => boolean {
  const origins = new Set<string>();
  const hosts: string[] = [];
  for (const entry of entries) {
    if (entry.includes('://')) origins.add(new URL(entry).origin);
    else hosts.push(entry.toLowerCase());
  }
  return (url) => {
    if (url.username || url.password) return false;
    if (origins.has(url.origin)) return true;
    if (url.protocol !== 'https:' || url.port !== '') return false;
    return hosts.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));
  };
}

function parseUrl(raw: string, base?: URL): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

async function readAtMost(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw malformed(`Replicate output is ${declared} bytes, over the ${maxBytes}-byte limit`);
  }
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw malformed(`Replicate output is over the ${maxBytes}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImageType(bytes: Buffer): ImageMime | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}

/** Resolves or rejects with `promise`, or rejects with the stop reason as soon as `stop` aborts. */
function untilStopped<T>(promise: Promise<T>, stop: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stop.reason);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    // Always attached, so a late rejection is never unhandled.
    promise.then(resolve, reject).finally(() => stop.removeEventListener('abort', onStop));
  });
}
