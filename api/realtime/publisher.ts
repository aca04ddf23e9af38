/** A realtime event as it travels on the broker (DESIGN.md §6). */
export interface RealtimeEnvelope<T = unknown> {
  event: string;
  data: T;
  id: string;
  at: string;
}

export interface Publisher {
  /**
   * Never rejects for a delivery problem (events go out after commit; clients refetch on reconnect);
   * resolves to whether the broker took the event, so a sweep can retry what was not sent.
   */
  publish<T>(topic: string, event: string, data: T): Promise<boolean>;
  close(): Promise<void>;
}

/** Topic names come from here only. */
export const topics = {
  operator: (workspaceId: number, operatorId: number) => `ws/${workspaceId}/op/${operatorId}`,
  workspace: (workspaceId: number) => `ws/${workspaceId}/all`,
  widget: (channelIdentifier: string, visitorId: string) => `widget/${channelIdentifier}/${visitorId}`,
};
