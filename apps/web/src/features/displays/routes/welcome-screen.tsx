import { PageTitle } from '../../../components/page-title';

/** Welcome — spec customer §2 /welcome (venue slideshow). Navigation and footer only until that work lands. */
export default function WelcomeScreen() {
  return <PageTitle visuallyHidden>Welcome</PageTitle>;
}
