import { registerTopicFamily, type TopicFamily } from '../realtime/topicFamilies';
import { parseTeamRoomTopic, topics } from '../realtime/publisher';
import { isRoomMember, roomIdsOf } from './membership';

/**
 * The team rooms' topics (`ws/{workspaceId}/team/{roomId}`, docs/team-chat.md "Realtime"), told to the broker's
 * checks: an operator hears a room of their workspace while they are in it (its members, or its group's).
 */
export const teamRoomTopics: TopicFamily = {
  owns: (topic) => parseTeamRoomTopic(topic) !== undefined,
  async allows(knex, operator, topic) {
    const room = parseTeamRoomTopic(topic);
    if (!room || room.workspaceId !== operator.workspaceId) return false;
    return isRoomMember(knex, operator.workspaceId, operator.operatorId, room.roomId);
  },
  async topicsOf(knex, operator) {
    return (await roomIdsOf(knex, operator.workspaceId, operator.operatorId)).map((roomId) => topics.teamRoom(operator.workspaceId, roomId));
  },
};

registerTopicFamily(teamRoomTopics);
