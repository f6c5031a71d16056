/**
 * /config/rules (issue #18, SPEC.md §3 "Rule: libelle, active", §4 "counting rules are active or
 * inactive"): the counting rules of every site, each an on/off box, and for each rule a pair of
 * buttons that set it on every site at once. Each change is saved at once (bo/updateRule) and
 * told with SPEC.md §8's success for a changed rule; a refusal is a persistent error and the box
 * shows the server's state again.
 */
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { RULE_LIBELLES, type Rule, type RuleLibelle } from '../../../../contract/counting.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { visibleSites } from '../../../selection/site-scope.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ListPage, ListReads } from '../../../ui/list-page.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { type RuleChange, rulesAdminQueries, useUpdateRuleMutation } from '../rules-admin-queries.ts';
import './rules-admin.css';

/** The rules of one site, in RULE_LIBELLES order. */
interface SiteRules {
  restaurantId: number;
  name: string;
  rules: Rule[];
}

/** `rules` per site, named from the user's sites ('NON REMPLI' ones left out, SPEC.md §3). */
function bySite(rules: readonly Rule[], names: ReadonlyMap<number, string>, hidden: ReadonlySet<number>) {
  const out = new Map<number, SiteRules>();
  for (const r of rules) {
    if (hidden.has(r.restaurantId)) continue;
    const entry = out.get(r.restaurantId) ?? {
      restaurantId: r.restaurantId,
      name: names.get(r.restaurantId) ?? `#${r.restaurantId}`,
      rules: [],
    };
    entry.rules.push(r);
    out.set(r.restaurantId, entry);
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Changes a rule and tells the outcome: the success names the rule and where; a failure its code. */
function useRuleChange() {
  const intl = useIntl();
  const update = useUpdateRuleMutation();
  function change(c: RuleChange, where: string) {
    update.mutate(c, {
      onSuccess: () =>
        notify.success(c.active ? 'ruleActivated' : 'ruleDeactivated', {
          rule: intl.formatMessage({ id: `rule.${c.libelle}` }),
          where,
        }),
      onError: notifyFailure,
    });
  }
  return { change, pending: update.isPending };
}

/** The /config/rules screen. */
export function RulesPage() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const list = useQuery({ ...rulesAdminQueries.list(user?.id ?? 0), enabled: user !== null });
  const { change, pending } = useRuleChange();
  const names = new Map(ref.sites.map((s) => [s.restaurantId, s.libelle]));
  const visible = new Set(visibleSites(ref.sites).map((s) => s.restaurantId));
  const hidden = new Set(ref.sites.map((s) => s.restaurantId).filter((id) => !visible.has(id)));
  const sites = bySite(list.data ?? [], names, hidden);
  const everywhere = intl.formatMessage({ id: 'rulesAdmin.everywhere' });
  return (
    <ListPage
      title={intl.formatMessage({ id: 'rulesAdmin.title' })}
      intro={intl.formatMessage({ id: 'rulesAdmin.intro' })}
    >
      <ListReads
        reads={[list]}
        texts={{
          loading: intl.formatMessage({ id: 'rulesAdmin.loading' }),
          failed: intl.formatMessage({ id: 'rulesAdmin.loadFailed' }),
          retry: intl.formatMessage({ id: 'rulesAdmin.retry' }),
        }}
      >
        {() => (
          <>
            <Card className="ra-card" labelledBy="ra-all">
              <CardTitle id="ra-all">{intl.formatMessage({ id: 'rulesAdmin.all.title' })}</CardTitle>
              <ul className="ra-list">
                {RULE_LIBELLES.map((libelle) => (
                  <AllSitesRule
                    key={libelle}
                    libelle={libelle}
                    isDisabled={pending}
                    onSet={(active) => change({ libelle, active, site: null }, everywhere)}
                  />
                ))}
              </ul>
            </Card>
            {sites.map((s) => (
              <Card key={s.restaurantId} className="ra-card" labelledBy={`ra-site-${s.restaurantId}`}>
                <CardTitle id={`ra-site-${s.restaurantId}`}>{s.name}</CardTitle>
                <div className="ra-boxes">
                  {s.rules.map((r) => (
                    <Checkbox
                      key={r.libelle}
                      isSelected={r.active}
                      isDisabled={pending}
                      onChange={(active) =>
                        change({ libelle: r.libelle, active, site: r.restaurantId }, s.name)
                      }
                    >
                      {intl.formatMessage({ id: `rule.${r.libelle}` })}
                    </Checkbox>
                  ))}
                </div>
              </Card>
            ))}
          </>
        )}
      </ListReads>
    </ListPage>
  );
}

/** One rule with its "on every site" and "off every site" buttons. */
function AllSitesRule(props: {
  libelle: RuleLibelle;
  isDisabled: boolean;
  onSet: (active: boolean) => void;
}) {
  const intl = useIntl();
  const rule = intl.formatMessage({ id: `rule.${props.libelle}` });
  return (
    <li className="ra-rule">
      <span className="ra-rule__name">{rule}</span>
      <span className="ra-buttons">
        <Button
          isDisabled={props.isDisabled}
          onPress={() => props.onSet(true)}
          aria-label={intl.formatMessage({ id: 'rulesAdmin.all.on.label' }, { rule })}
        >
          {intl.formatMessage({ id: 'rulesAdmin.all.on' })}
        </Button>
        <Button
          isDisabled={props.isDisabled}
          onPress={() => props.onSet(false)}
          aria-label={intl.formatMessage({ id: 'rulesAdmin.all.off.label' }, { rule })}
        >
          {intl.formatMessage({ id: 'rulesAdmin.all.off' })}
        </Button>
      </span>
    </li>
  );
}
