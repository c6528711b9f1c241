// A stored image in another format (GET /api/files/:id?format=, or an Accept asking for another
// type), within bounds (issue 53): re-encoding a 12 MP image to AVIF holds one of libuv's few
// threads for seconds, and sixteen at once left another user's read of a small file waiting 8-22 s.
// So a conversion is made once and kept in storage beside its file (deleted with it, job-files.ts
// removeFiles); made in a decode slot (decode-slots.ts: one at a time per user, DECODES_AT_ONCE in
// the process, fewer than libuv's threads, so a plain file read always finds one); stopped at a time
// limit, keeping nothing; and counted against a per-user limit. A kept conversion costs neither a
// slot nor a count.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { OUTPUT_FORMAT_TYPES, OUTPUT_FORMATS, type OutputFormat } from '../../../contract/output-files';
import type { AppDb } from '../../db/client';
import { rateLimit } from '../../db/schema';
import type { FileStorage } from '../../storage/storage';
import { type DecodeSlots, decodeSlots } from '../decode-slots';
import { convertedFile } from './converted-file';

/**
 * Conversions one user may have made per minute: the page's "Format" choice asks for one per result
 * and download, so this leaves a person room and a script a bound (kept ones are not counted).
 */
export const CONVERSIONS_PER_MINUTE = 20;
/** A 40 MP result as AVIF takes about 15 s here; past this a conversion is stopped, waiting included. */
export const CONVERSION_TIME_LIMIT_MS = 30_000;
const CONVERSION_WINDOW_MS = 60_000;
/** The rate_limit row counting a user's conversions is `conversions:<user id>`. */
export const CONVERSIONS_KEY_PREFIX = 'conversions:';

export const CONVERSION_MESSAGES = {
  tooMany: `You have asked for ${CONVERSIONS_PER_MINUTE} images in another format in the last minute. Wait a minute, or download them in the format they are stored in.`,
  tooSlow:
    'Converting this image took too long, so it was stopped. Try again in a minute, or download it in the format it is stored in.',
} as const;

/** Where a file's conversion to `format` is kept: beside the file, under a key made from the file's. */
export const convertedKey = (storageKey: string, format: OutputFormat) => `${storageKey}.as.${format}`;

/** Every conversion a file may have kept (removed with the file). */
export const convertedKeys = (storageKey: string) => OUTPUT_FORMATS.map((format) => convertedKey(storageKey, format));

/** A conversion refused (429, over the per-user limit) or stopped (503, over the time limit). */
export class ConversionRefusedError extends Error {
  override name = 'ConversionRefusedError';
  constructor(
    readonly status: 429 | 503,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Re-encodes `bytes` in `format`, stopping after `timeoutSeconds` of work (converted-file.ts). */
export type Converter = (bytes: Buffer, format: OutputFormat, limit: { timeoutSeconds: number }) => Promise<Buffer>;

/** The bounds, each replaceable by tests (a tiny time limit, a held converter, own slots). */
export type ConversionOptions = {
  convert?: Converter;
  timeLimitMs?: number;
  perMinute?: number;
  slots?: DecodeSlots;
};

export type StoredConversions = {
  /**
   * The file in `format`: kept, or made now within the bounds; null when the file is gone. Throws
   * ConversionRefusedError, or TransparentAsJpegError for a transparent image asked for as JPEG.
   */
  get(userId: string, file: { storageKey: string }, format: OutputFormat): Promise<Buffer | null>;
};

export function storedConversions(deps: { db: AppDb; storage: FileStorage } & ConversionOptions): StoredConversions {
  const { db, storage } = deps;
  const convert = deps.convert ?? convertedFile;
  const timeLimitMs = deps.timeLimitMs ?? CONVERSION_TIME_LIMIT_MS;
  const perMinute = deps.perMinute ?? CONVERSIONS_PER_MINUTE;
  const slots = deps.slots ?? decodeSlots;
  const tooSlow = () => new ConversionRefusedError(503, CONVERSION_MESSAGES.tooSlow, 60);

  return {
    async get(userId, file, format) {
      const key = convertedKey(file.storageKey, format);
      const kept = await storage.get(key);
      if (kept) return kept;
      const retryAfterSeconds = await countConversion(db, userId, perMinute);
      if (retryAfterSeconds !== null)
        throw new ConversionRefusedError(429, CONVERSION_MESSAGES.tooMany, retryAfterSeconds);

      // Past the time limit the answer goes at once; the work, if it started, stops by sharp's own
      // timeout and keeps its slot until then (its thread is busy until then), and is not kept.
      let abandoned = false;
      const made = slots.run(userId, async (): Promise<Buffer | null> => {
        if (abandoned) return null;
        // Made by an earlier request of this user while this one waited its turn.
        const madeMeanwhile = await storage.get(key);
        if (madeMeanwhile) return madeMeanwhile;
        const original = await storage.get(file.storageKey);
        if (!original) return null;
        const bytes = await convert(original, format, { timeoutSeconds: Math.max(1, Math.ceil(timeLimitMs / 1000)) });
        if (!abandoned) await storage.put(key, bytes, OUTPUT_FORMAT_TYPES[format]);
        return bytes;
      });
      let timer: NodeJS.Timeout | undefined;
      const overdue = new Promise<'overdue'>((resolve) => {
        timer = setTimeout(() => resolve('overdue'), timeLimitMs);
      });
      try {
        const answer = await Promise.race([made, overdue]);
        if (answer !== 'overdue') return answer;
        abandoned = true;
        void made.catch(() => undefined);
      } catch (error) {
        // sharp stopped the encoder at its own timeout: the same answer.
        if (!(error instanceof Error && /timeout/i.test(error.message))) throw error;
      } finally {
        clearTimeout(timer);
      }
      throw tooSlow();
    },
  };
}

/**
 * Counts a conversion in the user's current fixed window (one upsert in better-auth's rate_limit
 * table, so every web process sees the same count; `last_request` holds the window's start, as for
 * tool calls). Answers null when it is allowed, else the seconds until the window ends.
 */
async function countConversion(db: AppDb, userId: string, perMinute: number): Promise<number | null> {
  const now = Date.now();
  const windowOver = sql`${rateLimit.lastRequest} <= ${now - CONVERSION_WINDOW_MS}`;
  const [counted] = await db
    .insert(rateLimit)
    .values({ id: randomUUID(), key: `${CONVERSIONS_KEY_PREFIX}${userId}`, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${windowOver} then 1 else ${rateLimit.count} + 1 end`,
        lastRequest: sql`case when ${windowOver} then ${now}::bigint else ${rateLimit.lastRequest} end`,
      },
    })
    .returning({ count: rateLimit.count, windowStart: rateLimit.lastRequest });
  if (!counted || counted.count <= perMinute) return null;
  return Math.max(1, Math.ceil((counted.windowStart + CONVERSION_WINDOW_MS - now) / 1000));
}
