/** A realtime event as it travels on the broker (DESIGN.md §6). */
export interface RealtimeEvent<T = unknown> {
  event: string;
  data: T;
  id: string;
  at: string;
}

export function parseEvent(payload: Uint8Array | string): RealtimeEvent | undefined {
  try {
    const value = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload)) as Partial<RealtimeEvent>;
    return typeof value.event === 'string' ? (value as RealtimeEvent) : undefined;
  } catch {
    return undefined;
  }
}

/** Topics of DESIGN.md §6 the operator's browser subscribes to. */
export const realtimeTopics = (workspaceId: number, operatorId: number) => [`ws/${workspaceId}/all`, `ws/${workspaceId}/op/${operatorId}`];

/** A team chat room's topic (docs/team-chat.md "Realtime"), as api/realtime/publisher.ts names it. */
export const teamRoomTopic = (workspaceId: number, roomId: number) => `ws/${workspaceId}/team/${roomId}`;

export function brokerUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/mqtt`;
}
