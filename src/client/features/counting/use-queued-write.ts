/**
 * Opening a counting form on a write the server refused (`?outbox=<id>` from /sync): reads the
 * queued item from the outbox and hands its body to the page, which turns it back into
 * form values, so the manager fixes what was typed instead of typing it again.
 */
import { useEffect } from 'react';
import { findWrite } from '../../lib/outbox/page-outbox.ts';

/**
 * Calls `onLoad(body, itemId)` once the outbox item `outboxId` is read, if it is of `kind`
 * (`cashCount`, `safeCount`…); does nothing without an id or for another kind. `onLoad` is read
 * when the item arrives, so it need not be stable.
 */
export function useQueuedWrite<Body>(
  outboxId: string | undefined,
  kind: string,
  onLoad: (body: Body, itemId: string) => void,
  /** Values that, when they change, read the item again (e.g. the locale that formats it). */
  deps: readonly unknown[] = [],
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: onLoad is deliberately not a dependency (see above)
  useEffect(() => {
    if (!outboxId) return;
    void findWrite(outboxId).then((item) => {
      if (item?.kind === kind) onLoad(item.body as Body, item.id);
    });
  }, [outboxId, kind, ...deps]);
}
