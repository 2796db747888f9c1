import type { Attachment, Capabilities, DetachOutcome } from '@sv/shared';
import type { ComponentType } from 'react';

/**
 * The attach/detach UI that the volume and server pages show but do not own. app/routes.tsx
 * hands the attach-volume feature's components in, so no feature imports another.
 */
export interface AttachmentSlots {
  AttachDialog: ComponentType<{
    open: boolean;
    onClose: () => void;
    subject: { kind: 'server' | 'volume'; id: string; name: string };
    readOnlyAttach: Capabilities['readOnlyAttach'];
    onAttached?: (attachment: Attachment) => void;
  }>;
  DetachButton: ComponentType<{
    attachment: Attachment;
    /** The volume's other holds, to warn when the last writer leaves. */
    otherHolds?: Attachment[];
    /** Called once the BFF accepted the detach. */
    onDetached?: (attachment: Attachment) => void;
  }>;
  // --- web17: bulk detach ---
  /** Detach several at once: a confirmation naming them, then each one's outcome. */
  BulkDetachDialog?: ComponentType<{
    attachments: Attachment[];
    onClose: () => void;
    onDone?: (outcomes: DetachOutcome[]) => void;
  }>;
  /** Why an attachment cannot be picked for a detach (a root disk, one already detaching), or null. */
  detachBlock?: (attachment: Attachment) => string | null;
}
