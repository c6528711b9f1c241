// The options every onnxruntime-node session of the local engine starts from. Plain data, so that a
// network's own thread (isnet-worker.mjs, ocr-worker.mjs) receives them in its workerData.
import type { InferenceSession } from 'onnxruntime-node';

/**
 * Two intra-op threads (both cores of this machine; the model gate runs one image at a time per
 * network, so no inter-op threads), the whole graph optimised; `more` adds a network's own (its
 * memory arena). The pool's threads sleep between a run's parallel sections instead of
 * spinning, onnxruntime's default: a spinning thread holds a core that the web server, another
 * network or another process is waiting for. Measured with Real-ESRGAN x4fast on 136 px windows
 * beside two busy processes: 8.7-9.1 -> 7.4-7.6 CPU-s and 8.6-8.9 -> 6.7-8.1 s for twelve runs; alone,
 * 3.4 against 3.5 s (docs/decisions/065).
 */
export function onnxSessionOptions(more: InferenceSession.SessionOptions = {}): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: 2,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Session config entries (onnxruntime_session_options_config_keys.h): session.intra_op.allow_spinning.
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    ...more,
  };
}
