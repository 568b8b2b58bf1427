import { createUserGameBodySchema, messages, UserGameType } from '@reskin/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { notifySuccess } from '../../../lib/toasts';
import { searchGames } from '../../../api/games';
import { useCreateUserGame } from '../../../api/user-games';
import { searchUsers } from '../../../api/users';
import { jobTypeOptions } from '../lib/format';
import type { Suggestion } from '../lib/suggestion';
import { Typeahead } from './typeahead';

/** The add form below the list (SPEC §5 "Add user-game"): every field required, Add disabled while invalid. */
export function AddUserGameForm() {
  const createCall = useCreateUserGame();
  const [user, setUser] = useState<Suggestion | null>(null);
  const [game, setGame] = useState<Suggestion | null>(null);
  const [jobType, setJobType] = useState<string>(String(UserGameType.ReSkin));
  const [budget, setBudget] = useState('');
  const [budgetTouched, setBudgetTouched] = useState(false);
  // Remounts the typeaheads (clearing their text) after a successful add.
  const [generation, setGeneration] = useState(0);

  const candidate = createUserGameBodySchema.safeParse({
    userId: user?.id,
    gameId: game?.id,
    userGameTypeId: Number(jobType),
    jobPrice: budget.trim() === '' ? undefined : Number(budget),
  });
  const budgetError =
    budgetTouched && candidate.error?.issues.some((issue) => issue.path[0] === 'jobPrice')
      ? candidate.error.issues.find((issue) => issue.path[0] === 'jobPrice')?.message
      : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!candidate.success) return;
    createCall.mutate(candidate.data, {
      onSuccess: () => {
        notifySuccess(messages.userGameAdded);
        setUser(null);
        setGame(null);
        setJobType(String(UserGameType.ReSkin));
        setBudget('');
        setBudgetTouched(false);
        setGeneration((n) => n + 1);
      },
      // The client has toasted the server's reason (e.g. the game is already assigned to this user).
    });
  };

  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="fs-5">
        Assign a game to a user
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={submit} aria-label="Add user game">
          <Row>
            <Col md={6}>
              <Typeahead
                key={`user-${generation}`}
                id="userId"
                label="User"
                placeholder="Type a username"
                search={searchUsers}
                selected={user}
                onSelect={setUser}
              />
            </Col>
            <Col md={6}>
              <Typeahead
                key={`game-${generation}`}
                id="gameId"
                label="Game"
                placeholder="Type a game name"
                search={searchGames}
                selected={game}
                onSelect={setGame}
              />
            </Col>
          </Row>
          <Row>
            <Col md={6}>
              <Form.Group className="mb-3" controlId="userGameTypeId">
                <Form.Label>Job Type</Form.Label>
                <Form.Select value={jobType} onChange={(event) => setJobType(event.target.value)}>
                  {jobTypeOptions.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.label}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group className="mb-3" controlId="jobPrice">
                <Form.Label>Budget (USD)</Form.Label>
                <Form.Control
                  type="number"
                  min={0}
                  step="0.01"
                  required
                  value={budget}
                  isInvalid={budgetError !== undefined}
                  onChange={(event) => setBudget(event.target.value)}
                  onBlur={() => setBudgetTouched(true)}
                />
                {budgetError !== undefined && (
                  <Form.Control.Feedback type="invalid">{budgetError}</Form.Control.Feedback>
                )}
              </Form.Group>
            </Col>
          </Row>
          <Button type="submit" disabled={!candidate.success || createCall.isPending}>
            Add
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
