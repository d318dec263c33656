import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AnswerResult, ChallengeType } from '../../../server/src/db/schema/enums';
import {
  decide,
  solvedKey,
  type Decision,
  type FlagFacts,
  type JudgeContext,
  type SubmissionFacts,
} from '../../../server/src/modules/submissions/judge/decide';

// The judge's decision without a database (reference §5.7): each row is one submission, the flags it
// is compared with and the state it is judged in, and what the judge must answer.

const END = Date.UTC(2030, 0, 2);
const MINUTE = 60_000;
const OURS = 7;
const THEIRS = 8;

interface Shape {
  answer?: string;
  type?: ChallengeType;
  enabled?: boolean;
  bloodBonus?: boolean;
  hasInstance?: boolean;
  accepted?: boolean;
  submittedAt?: number;
  freezeAt?: number | null;
}

function submission(shape: Shape = {}): SubmissionFacts {
  return {
    id: 100,
    answer: shape.answer ?? 'flag{right}',
    submittedAt: shape.submittedAt ?? END - 10 * MINUTE,
    participation: { id: OURS, accepted: shape.accepted ?? true, teamName: 'Ours' },
    challenge: {
      id: 3,
      title: 'Warm-up',
      type: shape.type ?? 'StaticAttachment',
      enabled: shape.enabled ?? true,
      bloodBonus: shape.bloodBonus ?? true,
    },
    hasInstance: shape.hasInstance ?? true,
    gameEndAt: END,
    freezeAt: shape.freezeAt ?? null,
  };
}

const STATIC: FlagFacts = { static: ['flag{right}', 'flag{also}'], own: null, others: [] };
const DYNAMIC: FlagFacts = {
  static: [],
  own: 'flag{ours-1a2b}',
  others: [{ participationId: THEIRS, teamName: 'Theirs', flag: 'flag{theirs-3c4d}' }],
};

function context(shape: { accepted?: number; latest?: number; solved?: boolean; now?: number } = {}): JudgeContext {
  return {
    now: shape.now ?? END - 5 * MINUTE,
    challenges: new Map([[3, { accepted: shape.accepted ?? 0, latest: shape.latest ?? Number.NEGATIVE_INFINITY }]]),
    solved: new Set(shape.solved ? [solvedKey(OURS, 3)] : []),
  };
}

type Blood = 'FirstBlood' | 'SecondBlood' | 'ThirdBlood';

interface Row {
  name: string;
  submission: SubmissionFacts;
  flags: FlagFacts;
  context: JudgeContext;
  verdict: AnswerResult;
  /** The solve's type, or null for none. */
  solve: Blood | 'Normal' | null;
  /** The blood notice announced: by default the solve's blood, if any. */
  notice: Blood | null;
  cheatFrom?: number;
}

/** One row of the table, on one line: the name, the facts, and what the judge must answer. */
function row(
  name: string,
  [shape, flags, state]: [Shape, FlagFacts, Parameters<typeof context>[0]],
  verdict: AnswerResult,
  solve: Row['solve'] = null,
  extra: { notice?: Blood | null; cheatFrom?: number } = {},
): Row {
  const blood = solve === null || solve === 'Normal' ? null : solve;
  return {
    name,
    submission: submission(shape),
    flags,
    context: context(state),
    verdict,
    solve,
    notice: blood,
    ...extra,
  };
}

const PRACTICE = { now: END + 2 * MINUTE };
const cont = (answer: string): Shape => ({ type: 'DynamicContainer', answer });
const attach = (answer: string): Shape => ({ type: 'DynamicAttachment', answer });
const OUR_FLAG = 'flag{ours-1a2b}';
const THEIR_FLAG = 'flag{theirs-3c4d}';

const ROWS: Row[] = [
  // Flag comparison: exact, case-sensitive; the route trims before storing, the judge never does.
  row('static: the right flag', [{}, STATIC, {}], 'Accepted', 'FirstBlood'),
  row('static: any of its flags', [{ answer: 'flag{also}' }, STATIC, {}], 'Accepted', 'FirstBlood'),
  row('static: a wrong flag', [{ answer: 'flag{wrong}' }, STATIC, {}], 'WrongAnswer'),
  row('static: another case is wrong', [{ answer: 'FLAG{RIGHT}' }, STATIC, {}], 'WrongAnswer'),
  row('static: untrimmed is wrong here', [{ answer: ' flag{right} ' }, STATIC, {}], 'WrongAnswer'),
  row('static: a prefix is wrong', [{ answer: 'flag{righ' }, STATIC, {}], 'WrongAnswer'),
  row('static: no flags at all', [{}, { static: [], own: null, others: [] }, {}], 'WrongAnswer'),
  row('static container: the static flag', [{ type: 'StaticContainer' }, STATIC, {}], 'Accepted', 'FirstBlood'),
  // Dynamic flags are per team; another team's is cheating (static flags are shared: never).
  row('dynamic container: our flag', [cont(OUR_FLAG), DYNAMIC, {}], 'Accepted', 'FirstBlood'),
  row('dynamic attachment: our flag', [attach(OUR_FLAG), DYNAMIC, {}], 'Accepted', 'FirstBlood'),
  row(
    'dynamic: a static flag does not count',
    [cont('flag{right}'), { ...DYNAMIC, static: ['flag{right}'] }, {}],
    'WrongAnswer',
  ),
  row('dynamic: no flag assigned yet', [cont(OUR_FLAG), { ...DYNAMIC, own: null }, {}], 'WrongAnswer'),
  row('dynamic: our flag in another case', [cont('FLAG{OURS-1A2B}'), DYNAMIC, {}], 'WrongAnswer'),
  row('dynamic container: their flag is cheating', [cont(THEIR_FLAG), DYNAMIC, {}], 'CheatDetected', null, {
    cheatFrom: THEIRS,
  }),
  row('dynamic attachment: their flag is cheating', [attach(THEIR_FLAG), DYNAMIC, {}], 'CheatDetected', null, {
    cheatFrom: THEIRS,
  }),
  row(
    'dynamic: a flag of ours listed as foreign is no cheat',
    [cont('flag{old}'), { ...DYNAMIC, others: [{ participationId: OURS, teamName: 'Ours', flag: 'flag{old}' }] }, {}],
    'WrongAnswer',
  ),
  row(
    'static: a flag some team also holds is no cheat',
    [{ answer: THEIR_FLAG }, { ...STATIC, others: DYNAMIC.others }, {}],
    'WrongAnswer',
  ),
  // Unknown instance and disabled (hidden) challenges.
  row('no instance', [{ hasInstance: false }, STATIC, {}], 'NotFound'),
  row('a disabled challenge', [{ enabled: false }, STATIC, {}], 'NotFound'),
  row('a disabled challenge, even with a cheat', [{ ...cont(THEIR_FLAG), enabled: false }, DYNAMIC, {}], 'NotFound'),
  // Already solved, ended, practice, teams no longer accepted.
  row('already solved: accepted, no solve', [{}, STATIC, { solved: true, accepted: 1 }], 'Accepted'),
  row('submitted at the end: not scored', [{ submittedAt: END }, STATIC, { now: END + MINUTE }], 'Accepted'),
  row('practice after the end: accepted, not scored', [{ submittedAt: END + MINUTE }, STATIC, PRACTICE], 'Accepted'),
  row(
    'practice after the end: a wrong flag',
    [{ submittedAt: END + MINUTE, answer: 'x' }, STATIC, PRACTICE],
    'WrongAnswer',
  ),
  row(
    'submitted before the end, judged after: no notice',
    [{ submittedAt: END - 1 }, STATIC, { now: END + 1 }],
    'Accepted',
    'FirstBlood',
    { notice: null },
  ),
  row('a suspended team: accepted, no solve', [{ accepted: false }, STATIC, {}], 'Accepted'),
  // A frozen board hides who solved: the blood counts, its notice is not sent.
  row(
    'a blood once the board is frozen: no notice',
    [{ freezeAt: END - 30 * MINUTE }, STATIC, {}],
    'Accepted',
    'FirstBlood',
    { notice: null },
  ),
  row('a blood before a freeze to come: announced', [{ freezeAt: END - MINUTE }, STATIC, {}], 'Accepted', 'FirstBlood'),
  // Bloods by the challenge's counted solves so far.
  row('second blood', [{}, STATIC, { accepted: 1 }], 'Accepted', 'SecondBlood'),
  row('third blood', [{}, STATIC, { accepted: 2 }], 'Accepted', 'ThirdBlood'),
  row('fourth solve: normal', [{}, STATIC, { accepted: 3 }], 'Accepted', 'Normal'),
  row('blood bonus disabled: normal', [{ bloodBonus: false }, STATIC, {}], 'Accepted', 'Normal'),
];

function summary(decision: Decision) {
  const notice = decision.events.find((event) => event.kind === 'notice');
  return {
    verdict: decision.verdict,
    solve: decision.solve?.type ?? null,
    notice: notice?.type ?? null,
    cheatFrom: decision.cheatSource?.participationId,
  };
}

describe('the judge decides (no database)', () => {
  for (const row of ROWS) {
    test(row.name, () => {
      const decision = decide(row.submission, row.flags, row.context);
      assert.deepEqual(summary(decision), {
        verdict: row.verdict,
        solve: row.solve,
        notice: row.notice,
        cheatFrom: row.cheatFrom,
      });
      // Every verdict but NotFound has its FlagSubmit event first, naming the verdict.
      if (row.verdict === 'NotFound') {
        assert.deepEqual(decision.events, []);
      } else {
        assert.deepEqual(decision.events[0], {
          kind: 'event',
          type: 'FlagSubmit',
          values: [row.verdict, row.submission.answer, 'Warm-up', '3'],
        });
      }
      // Only a solve moves the context on.
      assert.equal(decision.next === row.context, decision.solve === undefined);
    });
  }

  test('a blood notice names the team and the challenge', () => {
    const decision = decide(submission(), STATIC, context({ accepted: 1 }));
    assert.deepEqual(decision.events[1], { kind: 'notice', type: 'SecondBlood', values: ['Ours', 'Warm-up'] });
  });

  test('a cheat names the challenge, the submitting team and the flag owner', () => {
    const decision = decide(submission({ type: 'DynamicContainer', answer: 'flag{theirs-3c4d}' }), DYNAMIC, context());
    assert.deepEqual(decision.events, [
      { kind: 'event', type: 'FlagSubmit', values: ['CheatDetected', 'flag{theirs-3c4d}', 'Warm-up', '3'] },
      { kind: 'event', type: 'CheatDetected', values: ['Warm-up', 'Ours', 'Theirs'] },
    ]);
    assert.deepEqual(decision.cheatSource, { participationId: THEIRS, teamName: 'Theirs' });
  });

  test('a solve is timed at its submission, never before the latest solve + 1 ms', () => {
    const at = END - 10 * MINUTE;
    assert.equal(decide(submission({ submittedAt: at }), STATIC, context({ latest: at - 5 })).solve?.solvedAt, at);
    assert.equal(decide(submission({ submittedAt: at }), STATIC, context({ latest: at })).solve?.solvedAt, at + 1);
    assert.equal(
      decide(submission({ submittedAt: at }), STATIC, context({ latest: at + 40 })).solve?.solvedAt,
      at + 41,
    );
  });

  test('a batch carries the context forward: bloods in order, one solve per team', () => {
    const teams = [
      { id: 11, name: 'A' },
      { id: 12, name: 'B' },
      { id: 11, name: 'A' },
      { id: 13, name: 'C' },
      { id: 14, name: 'D' },
    ];
    const at = END - 10 * MINUTE;
    let state = context();
    const before = state;
    const decided = teams.map((team, index) => {
      const facts = { ...submission({ submittedAt: at }), id: 200 + index };
      facts.participation = { id: team.id, accepted: true, teamName: team.name };
      const decision = decide(facts, STATIC, state);
      state = decision.next;
      return [decision.verdict, decision.solve?.type ?? null, decision.solve?.solvedAt ?? null];
    });
    assert.deepEqual(decided, [
      ['Accepted', 'FirstBlood', at],
      ['Accepted', 'SecondBlood', at + 1],
      ['Accepted', null, null],
      ['Accepted', 'ThirdBlood', at + 2],
      ['Accepted', 'Normal', at + 3],
    ]);
    assert.deepEqual(state.challenges.get(3), { accepted: 4, latest: at + 3 });
    // The context passed in is never changed.
    assert.deepEqual(before.challenges.get(3), { accepted: 0, latest: Number.NEGATIVE_INFINITY });
    assert.equal(before.solved.size, 0);
  });

  test('a challenge the context has not seen starts at no solves', () => {
    const decision = decide(submission(), STATIC, { now: END - MINUTE, challenges: new Map(), solved: new Set() });
    assert.equal(decision.solve?.type, 'FirstBlood');
  });
});
