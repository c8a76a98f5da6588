/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/xml.h: the two libxml2 lookups every reader of libvirt's domain XML
 * needs (guest/domain-xml.c, guest/check.c, guest/check-memory.c).
 */
#pragma once

#include <libxml/tree.h>

/* "const char *" as libxml2's "const xmlChar *" (UTF-8 bytes either way). */
#define RV_XML_STR(s) ((const xmlChar *) (s))

/**
 * rv_xml_child:
 * @parent: (nullable): an element
 * @name: an element name
 *
 * Returns: (transfer none) (nullable): the first child element of @parent
 * named @name, or NULL (also for a NULL @parent).
 */
xmlNodePtr rv_xml_child(xmlNodePtr parent, const char *name);

/**
 * rv_xml_prop:
 * @node: an element
 * @name: an attribute name
 *
 * Returns: (transfer full) (nullable): the attribute's value as a
 * g_malloc'ed string, or NULL when @node has no such attribute.
 */
char *rv_xml_prop(xmlNodePtr node, const char *name);
