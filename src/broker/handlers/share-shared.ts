// What the share-group handlers check alike (KafkaApis).

/** KafkaApis#isMemberIdValid: share-group member ids are made by the client, 1 to 36 characters. */
export function isShareMemberIdValid(memberId: string | null): memberId is string {
  return memberId !== null && memberId.length > 0 && memberId.length <= 36;
}
