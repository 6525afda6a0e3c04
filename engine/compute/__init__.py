"""Questions that compute: the operator a question asks for, read from its structure, and the
values a path reaches compared as what they are. Shared by the stages that detect an operation
(route), say its result (answer) and judge a claim about it (check), so it lives outside
engine/stages."""
