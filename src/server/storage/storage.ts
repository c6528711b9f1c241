// File storage for tool inputs and outputs: a local folder by default (DATA_DIR/files), or an
// S3-compatible bucket (s3-storage.ts) when processes run on several machines.
export interface FileStorage {
  readonly kind: 'fs' | 's3';
  /** Writes the bytes under `key` (complete or not at all). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}
