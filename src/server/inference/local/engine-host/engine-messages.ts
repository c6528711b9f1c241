// What the server and its engine process say to each other over the IPC channel (Node's
// 'advanced' serialization: structured clone, so buffers travel as bytes, not base64).
import type { ToolResult } from '../../provider';
import { ProviderError, type ProviderInput } from '../../provider';

/** Server -> engine process. */
export type EngineRequest =
  | { kind: 'run' | 'precheck'; id: number; input: ProviderInput }
  | { kind: 'cancel'; id: number };

/** A failure as it crosses the channel: a ProviderError keeps what the user may be shown. */
export type WireError = { message: string; userMessage?: string; retryable?: boolean; provider: boolean };

/** Engine process -> server: one answer per run or precheck. */
export type EngineReply =
  | { id: number; ok: true; result?: ToolResult }
  | { id: number; ok: false; error: WireError }
  | { ready: true };

export function toWire(error: unknown): WireError {
  if (error instanceof ProviderError) return { message: error.message, ...error.options, provider: true };
  return { message: error instanceof Error ? error.message : String(error), provider: false };
}

export function fromWire(error: WireError): Error {
  if (!error.provider) return new Error(error.message);
  const { userMessage, retryable } = error;
  return new ProviderError(error.message, {
    ...(userMessage !== undefined ? { userMessage } : {}),
    ...(retryable !== undefined ? { retryable } : {}),
  });
}

/**
 * The value with every Uint8Array made a Buffer again: structured clone turns a Buffer into a plain
 * Uint8Array, and the engines and the job runner use Buffer's methods. No copy: the same memory.
 */
export function withBuffers<T>(value: T): T {
  if (value instanceof Uint8Array) {
    return (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)) as T;
  }
  if (Array.isArray(value)) return value.map(withBuffers) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withBuffers(v)])) as T;
  }
  return value;
}
