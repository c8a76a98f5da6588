/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/xml.c: see util/xml.h.
 */
#include <glib.h>

#include "util/xml.h"

xmlNodePtr
rv_xml_child(xmlNodePtr parent, const char *name)
{
    for (xmlNodePtr c = parent ? parent->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && xmlStrcmp(c->name, RV_XML_STR(name)) == 0)
            return c;
    return NULL;
}

char *
rv_xml_prop(xmlNodePtr node, const char *name)
{
    xmlChar *v = xmlGetProp(node, RV_XML_STR(name));
    char *s = v ? g_strdup((const char *) v) : NULL;

    xmlFree(v);
    return s;
}
