// File storage on any S3-compatible service (AWS S3, Cloudflare R2, MinIO...), for cluster mode:
// web and worker processes on different machines then share the files as they share the database.
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FileStorage } from './storage';

export type S3StorageConfig = {
  bucket: string;
  region: string;
  /** Another S3-compatible service than AWS (its URL); path-style addressing is used then. */
  endpoint: string | null;
  accessKeyId: string;
  secretAccessKey: string;
};

/** Keys are ours (random ids with a folder prefix), never user input: refuse anything else. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/;

export function createS3Storage(config: S3StorageConfig): FileStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
  const checked = (key: string) => {
    if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
    return key;
  };
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      // An S3 PUT is atomic: the object appears whole or not at all.
      await client.send(
        new PutObjectCommand({ Bucket: config.bucket, Key: checked(key), Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: checked(key) }));
        if (!object.Body) return null;
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: checked(key) }));
    },
  };
}
