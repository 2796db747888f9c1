/**
 * Sizes of everything the graph draws, shared by the layout, the fit rule and the node components,
 * so positions, boxes and "does it fit legibly" agree. Units are canvas pixels at zoom 1.
 */

/** No text may be smaller than this on screen (font size × zoom), the legibility rule. */
export const LEGIBLE_PX = 11;
/** The smallest font any node or edge label uses (Tailwind's text-xs). */
export const SMALLEST_FONT_PX = 12;
/** Below this zoom some text would be under LEGIBLE_PX: nodes then draw without text. */
export const LEGIBLE_ZOOM = LEGIBLE_PX / SMALLEST_FONT_PX;
/** The first view never magnifies past 100 %. */
export const MAX_FIT_ZOOM = 1;
/** Margin kept around the graph when it is fitted on screen, in screen pixels. */
export const FIT_PADDING_PX = 16;
/** Room kept free on the left of the first view for the zoom buttons, in screen pixels. */
export const CONTROLS_GUTTER_PX = 44;

/** The column of zones and hosts: as wide as the screen allows, within these bounds. */
export const LEFT_MIN_W = 240;
export const LEFT_MAX_W = 640;
/** Between the host column and the volume column, where the lines run. */
export const EDGE_GAP = 150;
/** Vertical gap between boxes stacked in a column. */
export const STACK_GAP = 8;

export const ZONE_COLLAPSED_H = 56;
export const ZONE_HEADER_H = 38;
export const ZONE_PAD = 10;

export const HOST_COLLAPSED_H = 48;
export const HOST_HEADER_H = 40;
export const HOST_PAD = 8;
/** The line an expanded host without servers shows instead of a grid. */
export const HOST_EMPTY_H = 22;

/** Server chips: at least this wide; a host's grid has as many columns as its width allows. */
export const SERVER_MIN_W = 140;
export const SERVER_H = 26;
export const SERVER_GAP = 5;
/** A host never packs more servers per row than this, however wide the screen. */
export const MAX_SERVER_COLUMNS = 4;

/**
 * A partial host (showing only pinned servers: a found one, a volume's holders) is one compact row:
 * its name on the left, the pinned chips beside it.
 */
export const PARTIAL_LABEL_W = 150;
export const PARTIAL_PAD = 4;
export const SERVER_MAX_W = 200;

/** The chip standing for servers (or hosts) that are folded away. */
export const FOLD_H = 24;

export const VOLUME_W = 220;
export const VOLUME_H = 46;
export const VOLUME_GAP = 8;
