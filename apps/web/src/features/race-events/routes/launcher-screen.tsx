import { PageTitle } from '../../../components/page-title';

/** Launcher — spec staff §2 /admin/launcher. Navigation and footer only until that work lands. */
export default function LauncherScreen() {
  return <PageTitle visuallyHidden>Launcher</PageTitle>;
}
