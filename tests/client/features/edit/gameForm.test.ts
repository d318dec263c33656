import { decodeBloodBonus } from '@/shared/lib/bloodBonus';
import {
  addDivisions,
  formToGame,
  fromLocalInput,
  gameToForm,
  toLocalInput,
  validateGameForm,
} from '@/features/edit/lib/gameForm';
import { reviewActions } from '@/features/edit/lib/participation';
import { END, game, START } from './support';

describe('the game form', () => {
  it('shows times in local time at minute precision and reads them back', () => {
    const local = toLocalInput(START);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe(START);
    expect(toLocalInput(0)).toBe('');
    expect(fromLocalInput('')).toBeNaN();
    expect(fromLocalInput('2030-13-99')).toBeNaN();
  });

  it('round-trips a stored game unchanged', () => {
    const stored = game(7, { divisions: ['A', 'B'], inviteCode: 'join', bloodBonus: (100 << 20) + (20 << 10) + 5 });
    const back = formToGame(gameToForm(stored), 7);
    expect(back).toEqual({
      id: 7,
      title: 'Game 7',
      summary: '',
      content: '',
      hidden: false,
      practiceMode: true,
      acceptWithoutReview: false,
      inviteCode: 'join',
      divisions: ['A', 'B'],
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      start: START,
      end: END,
      writeupRequired: false,
      writeupDeadline: END,
      writeupNote: '',
      bloodBonus: (100 << 20) + (20 << 10) + 5,
    });
  });

  it('packs the three bonus fields and sends empty optional fields as the server’s “none”', () => {
    const form = { ...gameToForm(game(1)), bloodFirst: '1000', bloodSecond: '0', bloodThird: '7' };
    const model = formToGame({ ...form, inviteCode: '  ', divisions: [], writeupDeadline: '' }, 1);
    expect(decodeBloodBonus(model.bloodBonus!)).toEqual({ first: 1000, second: 0, third: 7 });
    expect(model.inviteCode).toBeNull();
    expect(model.divisions).toBeNull();
    expect(model.writeupDeadline).toBe(0);
  });

  it('names each problem: title, times, limits, bonuses and the writeup deadline', () => {
    const valid = gameToForm(game(1));
    expect(validateGameForm(valid)).toEqual({});
    expect(
      validateGameForm({
        ...valid,
        title: ' ',
        end: valid.start,
        teamMemberCountLimit: '-1',
        containerCountLimit: '2.5',
        bloodFirst: '1001',
        bloodSecond: '',
        bloodThird: 'x',
      }),
    ).toEqual({
      title: 'info.error.titleRequired',
      end: 'info.error.endBeforeStart',
      teamMemberCountLimit: 'info.error.limit',
      containerCountLimit: 'info.error.limit',
      bloodFirst: 'info.error.bonus',
      bloodSecond: 'info.error.bonus',
      bloodThird: 'info.error.bonus',
    });
    expect(validateGameForm({ ...valid, start: '' })).toEqual({ start: 'info.error.dateRequired' });
    expect(validateGameForm({ ...valid, writeupRequired: true, writeupDeadline: '' })).toEqual({
      writeupDeadline: 'info.error.dateRequired',
    });
    expect(validateGameForm({ ...valid, writeupRequired: true, writeupDeadline: toLocalInput(END - 60_000) })).toEqual({
      writeupDeadline: 'info.error.deadlineBeforeEnd',
    });
    // Not required: a deadline is not checked.
    expect(validateGameForm({ ...valid, writeupDeadline: '' })).toEqual({});
  });

  it('adds typed divisions without blanks or repeats', () => {
    expect(addDivisions(['A'], ' B , A,,C\nB ')).toEqual(['A', 'B', 'C']);
  });
});

describe('the review state machine (spec §4)', () => {
  it('offers only the allowed moves', () => {
    expect(reviewActions('Pending')).toEqual(['Accepted', 'Rejected']);
    expect(reviewActions('Accepted')).toEqual(['Suspended']);
    expect(reviewActions('Suspended')).toEqual(['Accepted']);
    expect(reviewActions('Rejected')).toEqual([]);
    expect(reviewActions('Unsubmitted')).toEqual([]);
  });
});
