import { PageTitle } from '../../../components/page-title';

/** Simulator Pricing — spec customer §2 /splash (price list). Navigation and footer only until that work lands. */
export default function SplashScreen() {
  return <PageTitle visuallyHidden>Simulator Pricing</PageTitle>;
}
