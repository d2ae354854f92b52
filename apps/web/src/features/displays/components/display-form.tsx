import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import FormControl from 'react-bootstrap/FormControl';
import FormGroup from 'react-bootstrap/FormGroup';
import FormLabel from 'react-bootstrap/FormLabel';
import FormRange from 'react-bootstrap/FormRange';
import FormSelect from 'react-bootstrap/FormSelect';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../lib/routes';
import { boardsQuery } from '../../../lib/api/boards-queries';
import { DISPLAY_DEFAULTS } from './display-defaults';

const KEY = 'paddock.display';

type Choice = { board: string; itemsToShow: number; reloadInterval: number };

function remembered(): Choice {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Choice> | null;
    return { board: '', ...DISPLAY_DEFAULTS, ...saved };
  } catch {
    return { board: '', ...DISPLAY_DEFAULTS };
  }
}

/** `/display` without a board: choose what the screen shows (remembered for next time). */
export function DisplayForm() {
  const navigate = useNavigate();
  const boards = useQuery(boardsQuery());
  const [choice, setChoice] = useState<Choice>(remembered);
  const board = choice.board || String(boards.data?.[0]?.id ?? '');
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v || lo));
  return (
    <form
      className="mx-auto my-4"
      style={{ maxWidth: 480 }}
      onSubmit={(e) => {
        e.preventDefault();
        const saved = { ...choice, board, itemsToShow: clamp(choice.itemsToShow, 1, 100) };
        localStorage.setItem(KEY, JSON.stringify(saved));
        navigate(
          pathTo(
            'display',
            { boardId: board },
            { itemsToShow: saved.itemsToShow, reloadInterval: saved.reloadInterval },
          ),
        );
      }}
    >
      <FormGroup className="mb-3" controlId="display-board">
        <FormLabel>Board</FormLabel>
        <FormSelect
          required
          value={board}
          onChange={(e) => setChoice({ ...choice, board: e.target.value })}
        >
          {boards.data?.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </FormSelect>
      </FormGroup>
      <FormGroup className="mb-3" controlId="display-items">
        <FormLabel>Items to Show</FormLabel>
        <FormControl
          type="number"
          min={1}
          max={100}
          value={choice.itemsToShow}
          onChange={(e) => setChoice({ ...choice, itemsToShow: Number(e.target.value) })}
        />
      </FormGroup>
      <FormGroup className="mb-3" controlId="display-reload">
        <FormLabel>Reload Interval: {choice.reloadInterval} seconds</FormLabel>
        <FormRange
          min={10}
          max={600}
          step={10}
          value={choice.reloadInterval}
          onChange={(e) => setChoice({ ...choice, reloadInterval: Number(e.target.value) })}
        />
      </FormGroup>
      <Button type="submit" disabled={!board}>
        Show Leaderboard
      </Button>
    </form>
  );
}
