// How the console writes times, money and tools: one place, so that every table reads alike.
import { formatPrice } from '../../../contract/packages';
import { TOOLS } from '../../../contract/tools';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const hourFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Mar 14, 2026, 3:09 PM" (the browser's time zone); a dash for none. */
export const formatTime = (iso: string | null) => (iso ? timeFormat.format(new Date(iso)) : '–');

/** A chart bar's label: the hour ("3:00 PM") or the UTC day ("Mar 14") it starts. */
export const formatBucket = (iso: string, by: 'hour' | 'day') =>
  (by === 'hour' ? hourFormat : dayFormat).format(new Date(iso));

/** "$5.00" */
export const formatMoney = formatPrice;

/** "1,234" */
export const formatCount = (count: number) => count.toLocaleString('en-US');

/** A tool's name ("Image Upscaler"), or its id when this server no longer has it. */
export const toolTitle = (id: string) => TOOLS.find((tool) => tool.id === id)?.title ?? id;

/** A change of balance with its sign: "+100", "−5". */
export const formatDelta = (delta: number) => (delta > 0 ? `+${formatCount(delta)}` : `−${formatCount(-delta)}`);

/** An audit entry's before or after (`{ tokens: 20 }`): "tokens 20", "–" for none. */
export function formatState(state: Record<string, unknown> | null): string {
  if (!state) return '–';
  const parts = Object.entries(state).map(([key, value]) => `${key} ${String(value)}`);
  return parts.length ? parts.join(', ') : '–';
}
