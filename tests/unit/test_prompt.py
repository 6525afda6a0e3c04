from engine.llm.prompt import (
    ANSWER_INSTRUCTION,
    NO_KNOWLEDGE,
    SMALL_TALK,
    answer_messages,
    correction_note,
    parse_rewrite,
    rewrite_messages,
)


def words(text: str) -> int:
    return len(text.split())


FACTS = ["Omar Haddad's phone number is +47 555 0101", "Omar Haddad is a member of the Engineering group",
         "Weekly sync will be held in Meeting Room Beta"]
HISTORY = [("user", "Who is in Engineering?"), ("system", "Omar Haddad is in Engineering."),
           ("user", "What is his office?"), ("system", "His office is Office 12.")]


def test_prompt_has_instruction_numbered_facts_dialogue_and_the_user_turn():
    msgs = answer_messages("What is his phone number?", HISTORY, FACTS, count_tokens=words, budget=10_000)
    system = msgs[0]
    assert system["role"] == "system"
    assert ANSWER_INSTRUCTION in system["content"]
    assert "1. Omar Haddad's phone number is +47 555 0101" in system["content"]
    assert "3. Weekly sync will be held in Meeting Room Beta" in system["content"]
    assert [m["role"] for m in msgs[1:]] == ["user", "assistant", "user", "assistant", "user"]
    assert msgs[-1] == {"role": "user", "content": "What is his phone number?"}
    assert "say that you do not know" in ANSWER_INSTRUCTION


def test_no_facts_says_so_and_resolved_text_is_given_when_it_differs():
    msgs = answer_messages("and his phone?", [], [], count_tokens=words, budget=1000,
                           resolved="and Omar Haddad's phone?")
    assert NO_KNOWLEDGE in msgs[0]["content"]
    assert "and Omar Haddad's phone?" in msgs[0]["content"]
    same = answer_messages("Hello", [], [], count_tokens=words, budget=1000, resolved="hello")
    assert "resolved" not in same[0]["content"]


def test_small_talk_needs_no_knowledge_and_is_not_told_to_say_it_does_not_know():
    msgs = answer_messages("Thanks!", [], [], count_tokens=words, budget=1000, small_talk=True)
    assert SMALL_TALK in msgs[0]["content"] and NO_KNOWLEDGE not in msgs[0]["content"]


def size(msgs) -> int:
    return sum(words(m["content"]) + 8 for m in msgs)


def test_trimming_drops_oldest_turns_first_then_weakest_facts_then_start_of_user_text():
    full = answer_messages("What is his phone number?", HISTORY, FACTS, count_tokens=words, budget=10_000)
    # room for everything but two history turns: the two oldest go, all facts stay
    budget = size(full) - 1 - words(HISTORY[1][1]) - 8
    msgs = answer_messages("What is his phone number?", HISTORY, FACTS, count_tokens=words, budget=budget)
    assert size(msgs) <= budget
    assert [m["content"] for m in msgs[1:-1]] == [t for _, t in HISTORY[2:]]
    assert all(f in msgs[0]["content"] for f in FACTS)
    # tighter: no dialogue left, the last (weakest) fact goes before the best ones
    no_history = answer_messages("What is his phone number?", [], FACTS, count_tokens=words, budget=10_000)
    budget = size(no_history) - 2
    msgs = answer_messages("What is his phone number?", HISTORY, FACTS, count_tokens=words, budget=budget)
    assert len(msgs) == 2 and size(msgs) <= budget
    assert FACTS[0] in msgs[0]["content"] and FACTS[2] not in msgs[0]["content"]
    # nothing but the instruction fits: the user text keeps its end
    question = "please " * 40 + "what is his phone number?"
    msgs = answer_messages(question, HISTORY, FACTS, count_tokens=words, budget=words(ANSWER_INSTRUCTION) + 40)
    assert NO_KNOWLEDGE in msgs[0]["content"]
    assert msgs[-1]["content"].endswith("what is his phone number?")
    assert len(msgs[-1]["content"]) < len(question)


def test_correction_names_the_contradicted_claims():
    note = correction_note("Omar's phone is 123.", ["Omar's phone is 123"])
    assert '"Omar\'s phone is 123"' in note and "Omar's phone is 123." in note
    assert "not supported" in correction_note("Blah.", [])


def test_rewrite_prompt_shows_recent_turns_and_the_new_message_last():
    msgs = rewrite_messages("What is her email?", [("user", "u1"), ("system", "s1"), ("user", "Find Lisa."),
                                                   ("system", "Lisa Wilson is in Biology.")])
    assert "Do not answer" in msgs[0]["content"]
    assert "Reasoning:" in msgs[0]["content"] and "Resolved dialogue:" in msgs[0]["content"]
    body = msgs[1]["content"]
    assert "u1" not in body
    assert body.splitlines()[-1] == "User: What is her email?"
    assert "System: Lisa Wilson is in Biology." in body


def test_parse_rewrite_takes_the_last_user_turn_of_the_resolved_dialogue():
    out = ("Reasoning:\n- 'her' refers to Lisa Wilson, named by the system.\n\n"
           "Resolved dialogue:\nUser: Find Lisa.\nSystem: Lisa Wilson is in Biology.\n"
           "User: What is Lisa Wilson's email?\n")
    assert parse_rewrite(out, "What is her email?") == "What is Lisa Wilson's email?"


def test_parse_rewrite_tolerates_markdown_and_ignores_an_answer_after_it():
    out = ("**Reasoning:** her = Lisa Wilson\n**Resolved dialogue:**\n- **User:** \"What is Lisa Wilson's email?\"\n"
           "- **System:** lisa@example.org")
    assert parse_rewrite(out, "What is her email?") == "What is Lisa Wilson's email?"


def test_parse_rewrite_rejects_output_without_the_asked_shape():
    assert parse_rewrite("Her email is lisa@example.org.", "What is her email?") is None
    assert parse_rewrite("Reasoning: her = Lisa\nResolved dialogue:\n(none)", "What is her email?") is None
    rambling = "Resolved dialogue:\nUser: " + "blah " * 200
    assert parse_rewrite(rambling, "What is her email?") is None
