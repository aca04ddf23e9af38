/** A realtime event as it travels on the broker (DESIGN.md §6). */
export interface RealtimeEnvelope<T = unknown> {
  event: string;
  data: T;
  id: string;
  at: string;
}

export interface Publisher {
  publish<T>(topic: string, event: string, data: T): Promise<void>;
  close(): Promise<void>;
}

/** Topic names come from here only. */
export const topics = {
  operator: (workspaceId: number, operatorId: number) => `ws/${workspaceId}/op/${operatorId}`,
  workspace: (workspaceId: number) => `ws/${workspaceId}/all`,
  widget: (channelIdentifier: string, visitorId: string) => `widget/${channelIdentifier}/${visitorId}`,
};
