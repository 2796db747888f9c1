/**
 * When a server's attachment of a volume counts as a hold, for the BFF and the web app alike: the
 * holder counts, the two-writer rule and the pre-flight all use these two.
 */

/**
 * Whether an attachment in this Cinder attach_status still gives its server the disk. Ended ones
 * (`detached`, `deleted`) and failed ones (`error_*`) do not, as Cinder's own status rule ignores
 * them; `reserved`, `attaching`, `attached` and `detaching` do.
 */
export const isLiveHoldState = (state: string): boolean =>
  state !== 'detached' && state !== 'deleted' && !state.startsWith('error');

/**
 * A live hold that the compute service does not disown: Cinder takes an attachment naming any
 * server, so a record Nova does not list on that server (`knownToCompute: false`) is nobody's
 * hold. Unknown (null: the caller cannot see the server) still counts, as Cinder counts it.
 */
export const isServerHold = (hold: { state: string; knownToCompute: boolean | null }): boolean =>
  isLiveHoldState(hold.state) && hold.knownToCompute !== false;

/** A hold on its way somewhere (`reserved`, `attaching`, `detaching`): drawn dotted, flagged when stuck. */
export const isTransitionalHoldState = (state: string): boolean =>
  state === 'reserved' || state === 'attaching' || state === 'detaching';
