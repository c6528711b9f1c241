// The guide's code, as text: the first call with curl and with fetch, a webhook's verification, a
// batch and a result file, and each tool's example call. `origin` is this site's address (the page
// shows the one it is served from). e2e/developers-examples.test.ts runs the guide's, as the page
// shows them, against a running server.

/** `value` in double quotes for bash: what expands there (`$`, a backtick, `"`, `\`) escaped. */
const shellQuoted = (value: string) => `"${value.replace(/["$`\\]/g, '\\$&')}"`;

/**
 * A tool's example call (its web module's `apiExample`): multipart, each field a `-F` (`@` sends a
 * file), answered with JSON once the job is done: its outputs' URLs and the balance, or the refusal's
 * `error` (no `-f`, so that it is printed).
 */
export const toolCallExample = (origin: string, path: string, fields: Readonly<Record<string, string>>) =>
  [
    `curl -sS ${origin}${path}`,
    '-H "Authorization: Bearer $PP_API_KEY"',
    '-H "Prefer: wait=60"',
    ...Object.entries(fields).map(([name, value]) => `-F ${shellQuoted(`${name}=${value}`)}`),
  ].join(' \\\n  ');

/** `-f`: a refusal fails the command (its status on stderr) instead of being saved as the PNG. */
export const curlExample = (origin: string, path: string) => `curl -fsS ${origin}${path} \\
  -H "Authorization: Bearer $PP_API_KEY" \\
  -H "Accept: image/png" \\
  -H "Prefer: wait=60" \\
  -F "image=@photo.jpg" \\
  -o no-background.png`;

export const fetchExample = (origin: string, path: string) => `import { readFile } from 'node:fs/promises';

const image = (await readFile('photo.jpg')).toString('base64');
const response = await fetch('${origin}${path}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.PP_API_KEY}\`,
    'Content-Type': 'application/json',
    'Idempotency-Key': crypto.randomUUID(),
    Prefer: 'wait=60',
  },
  body: JSON.stringify({ image }),
});
const answer = await response.json();
if (response.status === 200) {
  console.log(answer.output, 'tokens left:', answer.balance);
} else if (response.status === 202) {
  console.log('still running: GET /api/jobs/' + answer.jobId);
} else {
  throw new Error(\`\${response.status}: \${answer.error}\`);
}`;

export const webhookExample = `import { Webhook } from 'standardwebhooks';

// Your secret from User Settings > Developer (it begins with "whsec_").
const webhook = new Webhook(process.env.PP_WEBHOOK_SECRET!);

// What is POSTed: how the job ended, when, and the job as GET /api/jobs/{id} shows it.
type JobEvent = {
  type: 'job.succeeded' | 'job.failed';
  timestamp: string;
  data: { id: string; tool: string; status: 'succeeded' | 'failed'; output: string[] | null; error: string | null };
};

export async function handle(request: Request): Promise<Response> {
  const body = await request.text(); // the raw body: verify before parsing
  let event: JobEvent;
  try {
    event = webhook.verify(body, {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    }) as JobEvent;
  } catch {
    return new Response('Invalid signature', { status: 400 });
  }
  // The same webhook-id may arrive twice (a retry): handle each id once.
  const job = event.data;
  console.log(event.type, job.id, job.status, job.output ?? job.error);
  return new Response(null, { status: 204 });
}`;

/**
 * A folder of photos as one batch: made, fed an image at a time, followed until no image waits or
 * runs, downloaded as a zip. A script for bash: `set -e` and `-f` stop it at the first refusal.
 */
export const batchExample = (origin: string, tool: string) => `#!/usr/bin/env bash
set -euo pipefail
API=${origin}/api
AUTH="Authorization: Bearer $PP_API_KEY"
BATCH=$(curl -fsS $API/batches -H "$AUTH" -H "Content-Type: application/json" \\
  -d '{"tool":"${tool}","size":3}' | jq -r .id)
i=0
for photo in IMG_0412.jpg IMG_0413.jpg IMG_0414.jpg; do
  curl -fsS $API/batches/$BATCH/images -H "$AUTH" \\
    -F "image=@$photo" -F "item=$i" -F "name=$photo" | jq -c '{item, status}'
  i=$((i + 1))
done
# Until no image waits or runs:
while :; do
  COUNTS=$(curl -fsS $API/batches/$BATCH -H "$AUTH" | jq -c .counts)
  echo "$COUNTS"
  [ "$(jq '.waiting + .running' <<< "$COUNTS")" = 0 ] && break
  sleep 3
done
curl -fsS $API/batches/$BATCH/download -H "$AUTH" -o results.zip`;

/** A shop listing's image in one call: the cut-out on white, a 2000 px square with a soft shadow, as JPEG. */
export const resultFileExample = (origin: string) => `# A shop listing: white, 2000 px square, soft shadow, JPEG
curl -fsS ${origin}/api/remove-background \\
  -H "Authorization: Bearer $PP_API_KEY" -H "Accept: image/jpeg" \\
  -F "image=@sneaker.jpg" -F "outputFormat=jpeg" -F "outputQuality=90" \\
  -F "background=#ffffff" -F "size=2000" -F "shadow=true" -o sneaker-listing.jpg`;
