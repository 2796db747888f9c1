/** Node sizes, shared by the layout and the node components so positions and boxes agree. */
export const SERVER_W = 236;
export const SERVER_H = 48;
export const VOLUME_W = 230;
export const VOLUME_H = 64;
export const HOST_HEADER_H = 52;
export const HOST_PAD = 12;
export const HOST_EMPTY_H = 28;
export const SERVER_GAP_X = 12;
export const SERVER_GAP_Y = 10;
export const HOST_GAP = 28;
export const VOLUME_GAP = 14;
/** Room between the host column and the volume column, where the edges run. */
export const COLUMN_GAP = 320;
/** A host with more servers than this wraps them into more columns (at most MAX_SERVER_COLUMNS). */
export const SERVERS_PER_COLUMN = 30;
export const MAX_SERVER_COLUMNS = 6;
