// Where the faces are: blazeface boxes refined by the face mesh, in the image's own pixels.
import type { RawImage } from '../raw-image';
import { runHuman } from './human-runtime';

export type FaceBox = { x: number; y: number; width: number; height: number; score: number };

/** The faces in the image, clipped to its bounds, most confident first (empty when none). */
export async function detectFaces(image: RawImage, signal?: AbortSignal): Promise<FaceBox[]> {
  const result = await runHuman(image, 'faces', signal);
  return result.face
    .map((face) => {
      const [left, top, width, height] = face.box;
      const x = Math.max(0, Math.round(left));
      const y = Math.max(0, Math.round(top));
      return {
        x,
        y,
        width: Math.min(image.width, Math.round(left + width)) - x,
        height: Math.min(image.height, Math.round(top + height)) - y,
        score: face.score,
      };
    })
    .filter((box) => box.width > 0 && box.height > 0)
    .sort((a, b) => b.score - a.score);
}
