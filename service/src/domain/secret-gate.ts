import { canDescribe, canReadValue, type ProjectAbility } from "./project-permissions.ts";

/**
 * Per-secret permission checks for one request, built once. When no rule about secrets has
 * conditions, every secret gets the same answer; when conditions speak only of environment and
 * path, the answer is kept per folder; only rules on names or tags are asked row by row.
 */
export type SecretGate = (
  environment: string,
  secretPath: string,
  secretName: string,
  tags: readonly { slug: string }[],
) => boolean;

const FOLDER_FIELDS = new Set(["environment", "secretPath"]);

type Question = "describe" | "readValue";

const actionsOf: Record<Question, string[]> = {
  describe: ["read", "describeSecret"],
  readValue: ["read", "readValue"],
};

export function secretGate(ability: ProjectAbility, question: Question): SecretGate {
  const rules = actionsOf[question].flatMap((action) => ability.possibleRulesFor(action, "secrets"));
  const check = question === "describe" ? canDescribe : canReadValue;
  if (rules.every((rule) => !rule.conditions)) {
    const answer = check(ability, {});
    return () => answer;
  }
  const perFolder = rules.every(
    (rule) => !rule.conditions || Object.keys(rule.conditions).every((field) => FOLDER_FIELDS.has(field)),
  );
  if (perFolder) {
    const answers = new Map<string, boolean>();
    return (environment, secretPath) => {
      const key = `${environment}\u0000${secretPath}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = check(ability, { environment, secretPath });
        answers.set(key, answer);
      }
      return answer;
    };
  }
  return (environment, secretPath, secretName, tags) =>
    check(ability, { environment, secretPath, secretName, secretTags: tags.map((t) => t.slug) });
}
