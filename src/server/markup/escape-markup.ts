// Escapes text for markup we write by hand: HTML pages and mails, and the demo's SVG cards. One
// function for element content and quoted attribute values alike (&#39; is valid in HTML and XML).
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
