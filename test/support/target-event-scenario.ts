/**
 * What a listener is told of the scenario both event-listener suites run (on the fakes and on a real
 * database): two targets added launched to a campaign waiting on step `labs`, the first given step
 * data, edited, triggered and deleted, the second deleted. `of` gives each event's fields that the
 * two suites know differently (ids, actor).
 */
export function scenarioTargetEvents(
  of: (targetId: string) => object,
  first: string,
  second: string,
) {
  return {
    first: [
      {
        ...of(first),
        kind: 'added',
        status: 'Waiting',
        reason: 'added, waiting for step labs',
        data: { step: 'labs' },
      },
      {
        ...of(first),
        kind: 'step_data',
        status: null,
        reason: 'step labs data received',
        data: { step: 'labs', keys: ['hba1c'] },
      },
      {
        ...of(first),
        kind: 'status_changed',
        status: 'Pending',
        reason: 'step labs data received',
        data: { from: 'Waiting' },
      },
      {
        ...of(first),
        kind: 'input_edited',
        status: null,
        reason: 'input data edited',
        data: { keys: ['note'] },
      },
      {
        ...of(first),
        kind: 'status_changed',
        status: 'Scheduled',
        reason: 'calls triggered',
        data: { from: 'Pending', scheduled_time: expect.any(String) },
      },
      {
        ...of(first),
        kind: 'deleted',
        status: null,
        reason: 'deleted through the API',
        data: { last_status: 'Scheduled' },
      },
    ],
    second: [
      {
        ...of(second),
        kind: 'added',
        status: 'Waiting',
        reason: 'added, waiting for step labs',
        data: { step: 'labs' },
      },
      {
        ...of(second),
        kind: 'deleted',
        status: null,
        reason: 'deleted through the API',
        data: { last_status: 'Waiting' },
      },
    ],
  };
}
