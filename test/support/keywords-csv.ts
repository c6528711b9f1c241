// An Image Analyzer batch's zip holds keywords.csv (Filename, Keywords, Colors): the file names it
// lists, in its order, for tests that check a row a photo.
export function keywordsCsvFileNames(entries: Record<string, Uint8Array>): string[] {
  const csv = entries['keywords.csv'];
  if (!csv) return [];
  const rows = Buffer.from(csv).toString().trim().split('\r\n').slice(1);
  return rows.map((row) => row.split(',')[0] ?? '');
}
