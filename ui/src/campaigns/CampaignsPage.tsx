import { useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import { CampaignDetail } from './CampaignDetail';
import { CampaignList } from './CampaignList';
import { CampaignWizard } from './CampaignWizard';
import { useCampaignLive } from './live';
import { campaignTexts } from './texts';

/** SPEC §2 /campaigns/{id?}: the list, 'new' the wizard, an id the detail; all kept live over MQTT. */
export default function CampaignsPage() {
  const { id } = useParams();
  useCampaignLive();
  if (id === undefined) return <CampaignList />;
  if (id === 'new') return <CampaignWizard />;
  if (!/^\d+$/.test(id)) return <Alert severity="error" sx={{ m: 3 }}>{campaignTexts.detail.notFound}</Alert>;
  return <CampaignDetail key={id} id={Number(id)} />;
}
