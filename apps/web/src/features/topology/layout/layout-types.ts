/** What the layout needs to know, and nothing else: it crosses into a Web Worker, so keep it small. */
export interface LayoutInput {
  /** Host groups in their preferred order (the columns layout keeps it; elk may reorder). */
  hosts: { id: string; serverCount: number }[];
  servers: { id: string; name: string; host: string }[];
  volumes: { id: string; name: string }[];
  edges: { server: string; volume: string }[];
}

export type LayoutAlgorithm = 'elk-layered' | 'columns';

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutResult {
  algorithm: LayoutAlgorithm;
  /** Why this algorithm: the size rule, or elk's failure. */
  reason: string;
  /** Time spent laying out, in milliseconds. */
  ms: number;
  hosts: Box[];
  /** Positions relative to the server's host box (React Flow child nodes). */
  servers: { id: string; host: string; x: number; y: number }[];
  volumes: { id: string; x: number; y: number }[];
  width: number;
  height: number;
}

export type LayoutRequest = { id: number; input: LayoutInput; mode: 'auto' | 'columns' };
export type LayoutResponse =
  | { id: number; type: 'progress'; phase: LayoutAlgorithm }
  | { id: number; type: 'done'; result: LayoutResult }
  | { id: number; type: 'error'; message: string };
