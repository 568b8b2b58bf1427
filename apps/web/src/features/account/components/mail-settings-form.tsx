import {
  inboxMailSettingLabels,
  inboxMailSettings,
  mailMessages,
  type InboxMailSetting,
} from '@reskin/contract';
import Form from 'react-bootstrap/Form';
import { Loading } from '../../../components/ui/loading';
import { notifySuccess } from '../../../lib/toasts';
import { useMailSettings, useSaveMailSettings } from '../../../api/mail';

/** How the inbox's events reach you by mail: each, a daily digest, or never; saved on change. */
export function MailSettingsForm() {
  const settings = useMailSettings(true);
  const save = useSaveMailSettings();
  if (settings.isPending) return <Loading />;
  if (!settings.data) return null;
  return (
    <Form.Group controlId="inboxMail">
      <Form.Label>Mail me the inbox's events</Form.Label>
      <Form.Select
        value={save.variables?.inboxMail ?? settings.data.inboxMail}
        disabled={save.isPending}
        onChange={(event) =>
          save.mutate(
            { inboxMail: event.target.value as InboxMailSetting },
            { onSuccess: () => notifySuccess(mailMessages.mailSettingsSaved) },
          )
        }
      >
        {inboxMailSettings.map((setting) => (
          <option key={setting} value={setting}>
            {inboxMailSettingLabels[setting]}
          </option>
        ))}
      </Form.Select>
      <Form.Text>{mailMessages.inboxMailHint}</Form.Text>
    </Form.Group>
  );
}
