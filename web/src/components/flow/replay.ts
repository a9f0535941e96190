// The support console's replay of an attempt (issue 27), as the flows and the console share it.
//
// - `ReplayContext`: the read-only context a flow's panels honour when replayed. The panels
//   render exactly as on the visitor's page but do nothing by themselves (no redirect, no focus
//   taken) and read the clock at the replayed event's time instead of now. Absent on the
//   visitor's pages.
// - `ReplayFlow`: what each flow gives the console: its frames, folded by its page's own machine
//   (lib/attempts/replay/fold.ts), and the screen of one frame, made of its real panels. The app
//   hands the flows to the console (`ReplayFlowsContext`), as no feature imports another.

import { createContext, useContext, type ComponentType } from 'react';
import type { Frame, ReplayedEvent } from '../../lib/attempts/replay/fold';

export interface Replay {
  /** The replayed moment (ms epoch): the time of the event the screen is folded up to. */
  at: number;
  /**
   * Since when the panel on screen has been there (ms epoch), as far as the events tell: the
   * first of the consecutive events that left it on screen (a hint that hides after a while
   * reads its age from it).
   */
  since: number;
}

export const ReplayContext = createContext<Replay | null>(null);

/** The replay the panel is rendered in, or null on the visitor's own page. */
export function useReplay(): Replay | null {
  return useContext(ReplayContext);
}

export interface ReplayScreenProps {
  frame: Frame;
  /** The attempt's variant (activation's six pages), as the console's detail gives it. */
  variant: string | null;
  /** All the attempt's events, for what the screen needs beyond the frame (the visitor's platform). */
  events: ReplayedEvent[];
}

export interface ReplayFlow {
  /** One frame per event, in version order. */
  fold: (events: ReplayedEvent[], variant: string | null) => Frame[];
  /** The panel of a frame, by the name the page's machine gives it. */
  panelOf: (frame: Frame) => string;
  /** The visitor's screen at a frame, read-only: the page's own panels on the frozen snapshot. */
  Screen: ComponentType<ReplayScreenProps>;
}

/** The flows the console can replay, by flow name. */
export const ReplayFlowsContext = createContext<Readonly<Record<string, ReplayFlow>>>({});

export function useReplayFlow(flow: string): ReplayFlow | null {
  return useContext(ReplayFlowsContext)[flow] ?? null;
}

/** The `Replay` of frame `index`: its time, and since when its panel has been on screen. */
export function replayAt(flow: ReplayFlow, frames: Frame[], index: number): Replay {
  const panel = flow.panelOf(frames[index]);
  let first = index;
  while (first > 0 && flow.panelOf(frames[first - 1]) === panel) first -= 1;
  return { at: frames[index].time, since: frames[first].time };
}
