import { zodResolver } from '@hookform/resolvers/zod';
import {
  messages,
  versionChangeRefusal,
  versionCreateRefusal,
  versionFormSchema,
  type VersionForm,
} from '@reskin/contract';
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../../components/forms/text-field';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { idsQuery, useIds } from '../../../lib/route-ids';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useMyVersions, useSaveVersion } from '../../../api/versions';
import { useMyGame } from '../../../api/user-games';
import { NoGameChosen } from './no-game-chosen';

/** Add or edit a version (SPEC §2, §5): name 2-250 and description 2-500, with the rules of the contract. */
export function VersionFormScreen() {
  const { userGameId, versionId } = useIds();
  const myGame = useMyGame(userGameId);
  const userGame = myGame.userGame;
  const versions = useMyVersions(userGame?.gameId, userGameId);
  const editing = versionId === null ? undefined : versions.data?.find((version) => version.id === versionId);
  const navigate = useNavigate();
  const saveCall = useSaveVersion();
  const session = useSession();
  // A locked or disabled version cannot be renamed by its artist, and a demo account or a user-game at 6 of 6
  // versions cannot take a new one: the reason instead of the form.
  const readOnlyReason = editing
    ? versionChangeRefusal(session, editing, 'rename')?.message
    : versionId === null && versions.isSuccess
      ? (versionCreateRefusal(session, versions.data.length) ?? undefined)
      : undefined;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm<VersionForm>({
    resolver: zodResolver(versionFormSchema),
    mode: 'onChange',
    defaultValues: { name: '', description: '' },
  });
  const { track, error } = useTrackedForm(register, errors);

  // An edit starts from the version's saved name and description.
  useEffect(() => {
    if (editing) reset({ name: editing.name, description: editing.description });
  }, [editing, reset]);

  const backTo = `${paths.myGameVersions}?${idsQuery({ userGameId })}`;

  const save = handleSubmit(async (form) => {
    if (!userGame || userGameId === null) return;
    try {
      await saveCall.mutateAsync({ form, gameId: userGame.gameId, userGameId, versionId: editing?.id });
      notifySuccess(messages.versionSaved);
      void navigate(backTo);
    } catch {
      // The save call's one toast says 'There was an error.' and why (api/versions.ts); the form keeps its input.
    }
  });

  const noGame = userGameId === null;
  const loading = myGame.isLoading || versions.isLoading;
  const missing = !noGame && !loading && (!userGame || (versionId !== null && !editing));

  return (
    <Card className="mx-auto" style={{ maxWidth: 640 }}>
      <Card.Header as="h1" className="fs-5">
        {versionId === null ? 'Add Version' : 'Edit Version'}
        {userGame ? ` of ${userGame.game.name}` : ''}
      </Card.Header>
      <Card.Body>
        {loading && <Loading />}
        {noGame && <NoGameChosen />}
        {missing && <p>This version cannot be edited: it is not one of your versions.</p>}
        {readOnlyReason && (
          <>
            <p>{readOnlyReason}</p>
            <Link to={backTo} className="btn btn-outline-secondary">
              Back
            </Link>
          </>
        )}
        {!noGame && !loading && !missing && !readOnlyReason && (
          <Form noValidate onSubmit={save} aria-label="Version">
            <TextField registration={track('name')} label="Name" error={error('name')} />
            <TextField
              registration={track('description')}
              label="Description"
              rows={3}
              error={error('description')}
            />
            <div className="d-flex gap-2">
              <Button type="submit" disabled={!isValid || isSubmitting}>
                Save
              </Button>
              <Link to={backTo} className="btn btn-outline-secondary">
                Cancel
              </Link>
            </div>
          </Form>
        )}
      </Card.Body>
    </Card>
  );
}
