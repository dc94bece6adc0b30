; JSX: lower-case tags and their attributes are HTML, not symbols.

(jsx_opening_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_closing_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_self_closing_element name: (identifier) @ignore (#match? @ignore "^[a-z]"))
(jsx_opening_element
  name: (identifier) @_tag
  attribute: (jsx_attribute (property_identifier) @ignore)
  (#match? @_tag "^[a-z]"))
(jsx_self_closing_element
  name: (identifier) @_tag
  attribute: (jsx_attribute (property_identifier) @ignore)
  (#match? @_tag "^[a-z]"))
