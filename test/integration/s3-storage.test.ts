// S3-compatible file storage, against a real S3 protocol server on 127.0.0.1 (s3rver): the store
// itself, and a whole tool call whose input and output live in the bucket, served to their owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../src/server/storage/s3-storage';
import { type FakeS3, startFakeS3 } from '../support/fake-s3';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startFakeS3();
});
afterAll(() => s3?.stop());

describe('S3 storage', () => {
  const storage = () =>
    createS3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });

  it('keeps bytes under a key, answers null for a missing one, and deletes', async () => {
    const files = storage();
    const bytes = await pngBytes();
    await files.put('outputs/job-1/0.png', bytes, 'image/png');
    expect((await files.get('outputs/job-1/0.png'))?.equals(bytes)).toBe(true);
    expect(await files.get('outputs/no-such/0.png')).toBeNull();
    await files.delete('outputs/job-1/0.png');
    expect(await files.get('outputs/job-1/0.png')).toBeNull();
  });

  it('refuses keys that are not ours', async () => {
    const files = storage();
    await expect(files.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid storage key');
    await expect(files.get('/absolute')).rejects.toThrow('invalid storage key');
  });

  it('refuses unknown credentials: nothing stored', async () => {
    const files = createS3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'NOT-A-KEY',
      secretAccessKey: 'wrong',
    });
    await expect(files.put('outputs/x/0.png', Buffer.from('x'), 'image/png')).rejects.toThrow();
    expect(await storage().get('outputs/x/0.png')).toBeNull();
  });
});

describe('a tool call on S3 storage', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend({ env: s3.env, inference: routerWith(instantProvider()) });
  });
  afterAll(() => backend?.stop());

  it('stores the upload and the output in the bucket and serves the output to its owner only', async () => {
    const health = await backend.app.request('/api/health');
    expect((await health.json()).providers.storage).toEqual({ provider: 's3', external: true });
    const { client } = await verifiedUser(backend, 20);
    const answer = await client.post<{ output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes()),
      scale: 2,
    });
    expect(answer.status).toBe(200);
    const file = await client.fetchRaw(answer.body.output);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(8, 12)
        .toString(),
    ).toBe('WEBP');
    const stranger = await verifiedUser(backend, 20);
    expect((await stranger.client.fetchRaw(answer.body.output)).status).toBe(404);
  });
});
