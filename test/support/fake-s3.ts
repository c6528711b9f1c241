// An S3-compatible server on 127.0.0.1 for tests (s3rver, from npm: no network, no Docker).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type FakeS3 = { endpoint: string; bucket: string; env: Record<string, string>; stop(): Promise<void> };

export async function startFakeS3(bucket = 'pp-files'): Promise<FakeS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'pp-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as unknown as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    // s3rver checks signatures made with its fixed development credentials.
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
