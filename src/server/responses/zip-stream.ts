// A zip answered as it is written: entries are added one at a time (each image read from storage
// just before it goes in), so memory holds one file however large the archive. Images are stored,
// not compressed again: PNG, JPEG, WebP and AVIF are compressed already.
import { Zip, ZipPassThrough } from 'fflate';

export type AddZipEntry = (name: string, bytes: Uint8Array) => void;

/** The extension of a stored image's type, for an entry's name. */
export { extensionOfType as extensionFor } from '../../contract/output-files';

/** A zip stream whose entries `fill` adds; an error in `fill` ends the stream with it. */
export function zipStream(fill: (add: AddZipEntry) => Promise<void>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
      const add: AddZipEntry = (name, bytes) => {
        const entry = new ZipPassThrough(name);
        zip.add(entry);
        entry.push(bytes, true);
      };
      try {
        await fill(add);
        zip.end();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
