// The guide's code, as text: the first call with curl and with fetch, and a webhook's verification.
// `origin` is this site's address (the page shows the one it is served from).

export const curlExample = (origin: string, path: string) => `curl ${origin}${path} \\
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

export async function handle(request: Request): Promise<Response> {
  const body = await request.text(); // the raw body: verify before parsing
  let job;
  try {
    job = webhook.verify(body, {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    }) as { id: string; status: 'succeeded' | 'failed'; output: string[] | null };
  } catch {
    return new Response('Invalid signature', { status: 400 });
  }
  // The same webhook-id may arrive twice (a retry): handle each id once.
  console.log(job.id, job.status, job.output);
  return new Response(null, { status: 204 });
}`;
