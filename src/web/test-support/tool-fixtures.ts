// Helpers for the tool pages' tests: image files, choosing one, and the server's answers.
import { fireEvent, screen } from '@testing-library/react';

/** A tiny file that claims to be an image (the page reads it; the fake server does not look). */
export function imageFile(name = 'photo.png', type = 'image/png', size = 64): File {
  return new File([new Uint8Array(size).fill(7)], name, { type });
}

/** Chooses files through the drop zone's file input. */
export function chooseFiles(...files: File[]): void {
  fireEvent.change(screen.getByTestId('image-input'), { target: { files } });
}

/** Chooses one image and waits for its preview. */
export async function chooseImage(file: File = imageFile()): Promise<void> {
  chooseFiles(file);
  await screen.findByRole('img', { name: `Your image: ${file.name}` });
}

/** A successful answer of an image tool. */
export const imagesAnswer = (output: string[] | string, balance: number) => ({
  body: { success: true, output, jobId: 'job-1', balance },
});

export const fileUrl = (n: number) => `/api/files/00000000-0000-4000-8000-00000000000${n}`;
