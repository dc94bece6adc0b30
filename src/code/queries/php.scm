; PHP. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(namespace_definition name: (namespace_name) @name) @definition.namespace
; `namespace App\Blog;` holds everything after it.
(namespace_definition !body name: (namespace_name) @scope.name) @scope.tail

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.constant

(method_declaration name: (name) @name (#eq? @name "__construct")) @definition.constructor
(method_declaration name: (name) @name) @definition.method
(function_definition name: (name) @name) @definition.function

(property_declaration (property_element name: (variable_name (name) @name))) @definition.property
(property_promotion_parameter name: (variable_name (name) @name)) @definition.property
(const_declaration (const_element (name) @name)) @definition.constant

; ---- references ---------------------------------------------------------

; Variables ($x) are parameters and locals, never declared symbols.
(variable_name) @ignore
((name) @ignore (#any-of? @ignore "self" "static" "parent"))

(name) @reference
(member_access_expression name: (name) @reference.member)
(nullsafe_member_access_expression name: (name) @reference.member)
(member_call_expression name: (name) @reference.member)
(nullsafe_member_call_expression name: (name) @reference.member)
(scoped_call_expression name: (name) @reference.member)
(class_constant_access_expression (name) @reference.member .)

; ---- imports ------------------------------------------------------------

(namespace_use_clause) @import
(namespace_use_clause . [(qualified_name) (name)] @import.path)
(namespace_use_clause alias: (name) @import.alias)
([(include_expression) (include_once_expression) (require_expression) (require_once_expression)]
  (string (string_content) @import.source)) @import
