// What a browser may keep of a user's own answers (issue 36): their JSON never (no-store), their
// images only while they exist: revalidated on every view (private, no-cache, ETag), a 304 while
// unchanged, a 404 once deleted, never a day-long copy of a deleted image.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creation, CreationList, ShareLink } from '../../src/contract/creations';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

describe('caching of private answers', () => {
  it('sends no-store on the user’s JSON: creations, jobs, a job, purchases, a shared creation', async () => {
    const { client } = await verifiedUser(backend);
    const answer = await client.post<{ jobId: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(answer.status).toBe(200);
    const share = await client.post<ShareLink>(`/api/creations/${answer.body.jobId}/share`);
    const token = share.body.shareUrl.split('/shared/')[1];
    for (const path of [
      '/api/creations',
      '/api/jobs',
      `/api/jobs/${answer.body.jobId}`,
      '/api/purchases',
      `/api/shared/${token}`,
    ]) {
      const response = await client.get(path);
      expect([path, response.status, response.headers.get('cache-control')]).toEqual([path, 200, 'no-store']);
    }
  });

  it('revalidates private images with an ETag: 304 while they exist, 404 once the creation is deleted', async () => {
    const { client } = await verifiedUser(backend);
    const answer = await client.post<{ jobId: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(answer.status).toBe(200);
    const [creation] = (await client.get<CreationList>('/api/creations')).body.creations as [Creation];
    const share = await client.post<ShareLink>(`/api/creations/${answer.body.jobId}/share`);
    const sharedImage = `/api/shared/${share.body.shareUrl.split('/shared/')[1]}/files/0`;
    const images = [creation.outputs[0]?.url, creation.outputs[0]?.thumbnailUrl, creation.inputs[0]?.url, sharedImage];

    const etags: string[] = [];
    for (const url of images) {
      const first = await client.request('GET', url ?? '');
      expect([url, first.status, first.headers.get('cache-control')]).toEqual([url, 200, 'private, no-cache']);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^".+"$/);
      etags.push(etag);
      const again = await client.request('GET', url ?? '', { headers: { 'if-none-match': etag } });
      expect([url, again.status, again.body]).toEqual([url, 304, null]);
      expect(again.headers.get('cache-control')).toBe('private, no-cache');
    }
    // An image and its thumbnail are different answers.
    expect(new Set(etags).size).toBe(etags.length - 1);

    expect((await client.request('DELETE', `/api/creations/${answer.body.jobId}`)).status).toBe(204);
    for (const [i, url] of images.entries()) {
      const gone = await client.request('GET', url ?? '', { headers: { 'if-none-match': etags[i] ?? '' } });
      expect([url, gone.status]).toEqual([url, 404]);
    }
  });
});
